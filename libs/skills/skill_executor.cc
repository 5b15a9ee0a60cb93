#include "libs/skills/skill_executor.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "libs/skills/skill_validator.h"

namespace tw::skills {

const char* SkillEventKindName(SkillEvent::Kind kind) {
  switch (kind) {
    case SkillEvent::Kind::kSkillStarted:
      return "skill_started";
    case SkillEvent::Kind::kStepStarted:
      return "step_started";
    case SkillEvent::Kind::kStepCompleted:
      return "step_completed";
    case SkillEvent::Kind::kFinding:
      return "finding";
    case SkillEvent::Kind::kSkillCompleted:
      return "skill_completed";
    case SkillEvent::Kind::kSkillError:
      return "skill_error";
  }
  return "unknown";
}

const char* SkillOutcomeName(SkillOutcome outcome) {
  switch (outcome) {
    case SkillOutcome::kOk:
      return "ok";
    case SkillOutcome::kNotSupported:
      return "not_supported";
    case SkillOutcome::kInvalidArgument:
      return "invalid_argument";
    case SkillOutcome::kError:
      return "error";
  }
  return "error";
}

const StepResult* SkillRunResult::Output() const {
  if (!output_step.empty()) {
    for (const auto& s : steps) {
      if (s->step == output_step) return s->status == StepStatus::kOk ? s.get() : nullptr;
    }
    return nullptr;
  }
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    if ((*it)->status == StepStatus::kOk && (*it)->kind != "diagnose") return it->get();
  }
  return nullptr;
}

namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A stable id for a result, so the same skill on the same trace cites the same artifact:
// FNV-1a over skill, step, SQL, parameters and size.
std::string ArtifactId(const StepResult& r) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xff;
    h *= 1099511628211ull;
  };
  mix(r.skill);
  mix(r.step);
  mix(r.sql);
  for (const auto& [name, value] : r.parameters) {
    mix(name);
    mix(value.type == SqlValue::Type::kString ? value.string_value
        : value.type == SqlValue::Type::kInt  ? absl::StrCat(value.int_value)
        : value.type == SqlValue::Type::kDouble ? absl::StrCat(value.double_value)
                                                : "null");
  }
  mix(absl::StrCat(r.rows.size()));
  return absl::StrFormat("%s.%s-%08x", r.skill, r.step, static_cast<uint32_t>(h ^ (h >> 32)));
}

// Column types: declared by the display, else inferred from the first non-null value.
std::vector<ResultColumn> TypedColumns(const QueryResult& q, const Display& display) {
  std::vector<ResultColumn> out;
  for (size_t c = 0; c < q.columns.size(); ++c) {
    ResultColumn col;
    col.name = q.columns[c];
    bool declared = false;
    for (const auto& d : display.columns) {
      if (d.name == col.name) {
        col.type = d.type;
        col.unit = d.unit;
        declared = true;
      }
    }
    if (!declared) {
      for (const auto& row : q.rows) {
        if (row[c].type == SqlValue::Type::kNull) continue;
        col.type = row[c].type == SqlValue::Type::kString ? ColumnType::kString : ColumnType::kNumber;
        break;
      }
    }
    out.push_back(std::move(col));
  }
  return out;
}

// Table names in `requires.tables` are checked with SQL built from them; they come from the
// skill file (never from inputs), and only identifiers are accepted anyway.
bool IsPlainIdentifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return !std::isdigit(static_cast<unsigned char>(s[0]));
}

class RunScope : public ExprScope {
 public:
  RunScope(const std::map<std::string, SqlValue>* inputs,
           const std::map<std::string, std::shared_ptr<const StepResult>>* steps)
      : inputs_(inputs), steps_(steps) {}

  absl::StatusOr<ExprValue> Input(std::string_view name) const override {
    auto it = inputs_->find(std::string(name));
    if (it == inputs_->end()) return absl::NotFoundError(absl::StrCat("no input '", std::string(name), "'"));
    return ExprValue::FromSql(it->second);
  }
  absl::StatusOr<ExprValue> Step(std::string_view id) const override {
    auto it = steps_->find(std::string(id));
    if (it == steps_->end()) {
      return absl::NotFoundError(absl::StrCat("step '", std::string(id), "' has not run"));
    }
    if (it->second->status != StepStatus::kOk) return ExprValue::Null();
    return ExprValue{ExprValue::Result{it->second.get()}};
  }
  absl::StatusOr<ExprValue> CurrentRow() const override {
    if (!row_result_) return absl::NotFoundError("'row' is not available here");
    return ExprValue{ExprValue::Row{row_result_, row_index_}};
  }
  void SetRow(const StepResult* result, size_t index) {
    row_result_ = result;
    row_index_ = index;
  }

 private:
  const std::map<std::string, SqlValue>* inputs_;
  const std::map<std::string, std::shared_ptr<const StepResult>>* steps_;
  const StepResult* row_result_ = nullptr;
  size_t row_index_ = 0;
};

class SkillRun {
 public:
  SkillRun(SkillExecutor& executor, const SkillLibrary& library, SkillQueryRunner& runner,
      const ExecutionOptions& options, const Skill& skill,
      const std::map<std::string, SqlValue>& inputs, const SkillExecutor::EventSink& sink,
      int depth)
      : executor_(executor),
        library_(library),
        runner_(runner),
        options_(options),
        skill_(skill),
        inputs_(inputs),
        sink_(sink),
        depth_(depth),
        scope_(&inputs_, &results_) {}

  SkillRunResult Execute() {
    const int64_t start = NowNs();
    result_.skill = skill_.name;
    result_.output_step = skill_.output;
    Emit(SkillEvent::Kind::kSkillStarted, "", nullptr, nullptr, "");
    if (CheckSupported()) {
      for (const Step& step : skill_.steps) {
        if (Cancelled()) {
          Fail(SkillOutcome::kError, "cancelled");
          break;
        }
        auto r = RunStep(step);
        results_[step.id] = r;
        result_.steps.push_back(r);
        if (r->status == StepStatus::kFailed && !step.optional) {
          Fail(SkillOutcome::kError, absl::StrCat("step '", step.id, "' failed: ", r->message));
          break;
        }
        if (r->status == StepStatus::kNotSupported && !step.optional) {
          Fail(SkillOutcome::kNotSupported, r->message);
          break;
        }
      }
    }
    result_.elapsed_ns = NowNs() - start;
    if (result_.outcome == SkillOutcome::kOk) {
      Emit(SkillEvent::Kind::kSkillCompleted, "", nullptr, nullptr, "ok");
    } else if (result_.outcome == SkillOutcome::kNotSupported) {
      Emit(SkillEvent::Kind::kSkillCompleted, "", nullptr, nullptr,
           absl::StrCat("not_supported: ", result_.message));
    } else {
      Emit(SkillEvent::Kind::kSkillError, "", nullptr, nullptr, result_.message);
    }
    return std::move(result_);
  }

 private:
  bool Cancelled() const { return options_.cancelled && options_.cancelled->load(); }

  void Emit(SkillEvent::Kind kind, const std::string& step, const StepResult* r, const Finding* f,
            std::string message) {
    if (!sink_) return;
    SkillEvent e{kind, skill_.name, step, depth_, r, f, std::move(message)};
    sink_(e);
  }

  void Fail(SkillOutcome outcome, std::string message) {
    result_.outcome = outcome;
    result_.message = std::move(message);
  }

  // Modules first (tables may be views they define), then a row in every required table.
  bool CheckSupported() {
    for (const std::string& module : skill_.required_modules) {
      if (!runner_.HasModule(module)) {
        Fail(SkillOutcome::kNotSupported,
             absl::StrCat("not supported by this engine: skill '", skill_.name,
                          "' needs SQL module '", module, "', which is not available"));
        return false;
      }
      auto st = runner_.Query(absl::StrCat("INCLUDE PERFETTO MODULE ", module, ";"), {}, 1);
      if (!st.ok()) {
        Fail(SkillOutcome::kError, absl::StrCat("cannot include module '", module, "': ",
                                                std::string(st.status().message())));
        return false;
      }
    }
    std::vector<std::string> empty;
    for (const std::string& table : skill_.required_tables) {
      if (!IsPlainIdentifier(table)) {
        Fail(SkillOutcome::kError, absl::StrCat("bad table name '", table, "' in requires"));
        return false;
      }
      auto r = runner_.Query(absl::StrCat("SELECT 1 FROM ", table, " LIMIT 1"), {}, 1);
      // INVALID_ARGUMENT: no such table in this engine (e.g. a module created it elsewhere);
      // anything else (unknown trace, deadline, cancelled) is an error, not an answer.
      if (!r.ok() && r.status().code() != absl::StatusCode::kInvalidArgument) {
        Fail(SkillOutcome::kError, absl::StrCat("cannot check table '", table, "': ",
                                                std::string(r.status().message())));
        return false;
      }
      if (!r.ok() || r->rows.empty()) empty.push_back(table);
    }
    if (!empty.empty()) {
      Fail(SkillOutcome::kNotSupported,
           absl::StrCat("not supported by this trace: skill '", skill_.name, "' needs data in ",
                        absl::StrJoin(empty, ", "), ", which ",
                        empty.size() == 1 ? "is" : "are", " empty in this trace"));
      return false;
    }
    return true;
  }

  std::shared_ptr<StepResult> NewResult(const Step& step, std::string id) {
    auto r = std::make_shared<StepResult>();
    r->skill = skill_.name;
    r->step = std::move(id);
    r->kind = StepKindName(step.kind);
    r->title = step.display.title;
    r->level = step.display.level;
    return r;
  }

  std::shared_ptr<const StepResult> RunStep(const Step& step) {
    Emit(SkillEvent::Kind::kStepStarted, step.id, nullptr, nullptr, "");
    const int64_t start = NowNs();
    std::shared_ptr<StepResult> r;
    bool run = true;
    if (step.when) {
      auto cond = step.when->EvaluateCondition(scope_);
      if (!cond.ok()) {
        r = NewResult(step, step.id);
        r->status = StepStatus::kFailed;
        r->message = absl::StrCat("when: ", std::string(cond.status().message()));
        run = false;
      } else if (!*cond) {
        r = NewResult(step, step.id);
        r->status = StepStatus::kSkipped;
        r->message = absl::StrCat("condition is false: ", step.when->text());
        run = false;
      }
    }
    if (run) {
      switch (step.kind) {
        case Step::Kind::kSql:
          r = RunSql(step, step.id);
          break;
        case Step::Kind::kSkill:
          r = RunSkillCall(step, step.id);
          break;
        case Step::Kind::kForEach:
          r = RunForEach(step);
          break;
        case Step::Kind::kDiagnose:
          r = RunDiagnose(step);
          break;
      }
    }
    r->elapsed_ns = NowNs() - start;
    if (r->status == StepStatus::kOk) r->artifact_id = ArtifactId(*r);
    Emit(SkillEvent::Kind::kStepCompleted, step.id, r.get(), nullptr, r->message);
    return r;
  }

  std::shared_ptr<StepResult> RunSql(const Step& step, std::string id) {
    auto r = NewResult(step, std::move(id));
    r->sql = step.sql;
    for (const std::string& name : SqlParameterNames(step.sql)) {
      SqlValue value;
      if (auto p = step.params.find(name); p != step.params.end()) {
        auto v = p->second.Evaluate(scope_);
        absl::StatusOr<SqlValue> sql_value = v.ok() ? v->ToSql() : v.status();
        if (!sql_value.ok()) {
          r->status = StepStatus::kFailed;
          r->message = absl::StrCat("params.", name, ": ", std::string(sql_value.status().message()));
          return r;
        }
        value = *sql_value;
      } else if (auto i = inputs_.find(name); i != inputs_.end()) {
        value = i->second;
      }  // else: unknown to the validator too; bound as NULL
      r->parameters.emplace_back(name, value);
    }
    auto q = runner_.Query(step.sql, r->parameters, step.max_rows);
    if (!q.ok()) {
      r->status = StepStatus::kFailed;
      r->message = std::string(q.status().message());
      return r;
    }
    r->columns = TypedColumns(*q, step.display);
    r->rows = std::move(q->rows);
    r->truncated = q->truncated;
    return r;
  }

  std::shared_ptr<StepResult> RunSkillCall(const Step& step, std::string id) {
    auto r = NewResult(step, std::move(id));
    const Skill* callee = library_.Find(step.skill);
    if (!callee) {
      r->status = StepStatus::kFailed;
      r->message = absl::StrCat("unknown skill '", step.skill, "'");
      return r;
    }
    if (depth_ + 1 > options_.max_call_depth) {
      r->status = StepStatus::kFailed;
      r->message = absl::StrCat("skill calls nested deeper than ", options_.max_call_depth);
      return r;
    }
    std::map<std::string, SqlValue> args;
    for (const auto& [name, expr] : step.args) {
      auto v = expr.Evaluate(scope_);
      absl::StatusOr<SqlValue> sql_value = v.ok() ? v->ToSql() : v.status();
      if (!sql_value.ok()) {
        r->status = StepStatus::kFailed;
        r->message = absl::StrCat("args.", name, ": ", std::string(sql_value.status().message()));
        return r;
      }
      args[name] = *sql_value;
      r->parameters.emplace_back(name, *sql_value);
    }
    SkillRunResult sub = executor_.RunWithValues(*callee, args, sink_, depth_ + 1);
    for (auto& f : sub.findings) {
      AddCited(sub, f.evidence_artifact_id);
      result_.findings.push_back(f);
    }
    if (sub.outcome == SkillOutcome::kNotSupported) {
      r->status = StepStatus::kNotSupported;
      r->message = sub.message;
      return r;
    }
    if (sub.outcome != SkillOutcome::kOk) {
      r->status = StepStatus::kFailed;
      r->message = absl::StrCat("skill '", step.skill, "': ", sub.message);
      return r;
    }
    if (const StepResult* out = sub.Output()) {
      r->columns = out->columns;
      r->rows = out->rows;
      r->truncated = out->truncated;
      r->sql = out->sql;
    }
    return r;
  }

  // Keeps the called skill's step result that `artifact_id` names (once).
  void AddCited(const SkillRunResult& sub, const std::string& artifact_id) {
    if (artifact_id.empty()) return;
    for (const auto& c : result_.cited) {
      if (c->artifact_id == artifact_id) return;
    }
    for (const auto* list : {&sub.steps, &sub.cited}) {
      for (const auto& s : *list) {
        if (s->artifact_id == artifact_id) {
          result_.cited.push_back(s);
          return;
        }
      }
    }
  }

  std::shared_ptr<StepResult> RunForEach(const Step& step) {
    auto r = NewResult(step, step.id);
    auto over_it = results_.find(step.over);
    if (over_it == results_.end() || over_it->second->status != StepStatus::kOk) {
      r->status = StepStatus::kSkipped;
      r->message = absl::StrCat("step '", step.over, "' did not run");
      return r;
    }
    const StepResult& over = *over_it->second;
    const size_t n = std::min(over.rows.size(), static_cast<size_t>(step.max_items));
    r->truncated = over.rows.size() > n;
    int failures = 0;
    std::string first_failure;
    for (size_t i = 0; i < n; ++i) {
      if (Cancelled()) break;
      scope_.SetRow(&over, i);
      const std::string id = absl::StrCat(step.id, "[", i, "]");
      std::shared_ptr<StepResult> item;
      bool skip = false;
      if (step.body->when) {
        auto cond = step.body->when->EvaluateCondition(scope_);
        if (!cond.ok()) {
          ++failures;
          if (first_failure.empty()) first_failure = std::string(cond.status().message());
          skip = true;
        } else {
          skip = !*cond;
        }
      }
      if (!skip) {
        item = step.body->kind == Step::Kind::kSql ? RunSql(*step.body, id)
                                                   : RunSkillCall(*step.body, id);
      }
      scope_.SetRow(nullptr, 0);
      if (!item) continue;
      if (item->status != StepStatus::kOk) {
        ++failures;
        if (first_failure.empty()) first_failure = absl::StrCat(id, ": ", item->message);
        continue;
      }
      if (r->columns.empty()) {
        r->columns = item->columns;
        r->sql = item->sql;
      }
      if (item->columns.size() != r->columns.size()) continue;  // cannot happen for sql bodies
      for (auto& row : item->rows) r->rows.push_back(std::move(row));
      r->truncated = r->truncated || item->truncated;
    }
    if (failures > 0) {
      if (!step.body->optional) {
        r->status = StepStatus::kFailed;
        r->message = absl::StrCat(failures, " of ", n, " iterations failed; first: ", first_failure);
      } else {
        r->message = absl::StrCat(failures, " of ", n, " iterations failed (optional)");
      }
    }
    return r;
  }

  absl::Status AddFinding(const Step& step, const Rule& rule, const StepResult* evidence,
                          int64_t row, StepResult* table) {
    Finding f;
    f.skill = skill_.name;
    f.step = step.id;
    f.rule = rule.id;
    f.severity = rule.severity;
    if (rule.severity_template) {
      auto name = rule.severity_template->Render(scope_);
      if (!name.ok()) return name.status();
      auto severity = ParseSeverity(*name);
      if (!severity) {
        return absl::InvalidArgumentError(absl::StrCat("rule '", rule.id, "': severity '", *name,
                                                       "' is not info, notice, warning or critical"));
      }
      f.severity = *severity;
    }
    auto title = rule.title.Render(scope_);
    if (!title.ok()) return title.status();
    f.title = *title;
    auto description = rule.description.Render(scope_);
    if (!description.ok()) return description.status();
    f.description = *description;
    for (const Template& s : rule.suggestions) {
      auto text = s.Render(scope_);
      if (!text.ok()) return text.status();
      f.suggestions.push_back(*text);
    }
    if (rule.cause) {
      auto cause = rule.cause->Render(scope_);
      if (!cause.ok()) return cause.status();
      f.cause = *cause;
    }
    if (rule.impact) {
      auto impact = rule.impact->Evaluate(scope_);
      if (!impact.ok()) return impact.status();
      if (auto* i = std::get_if<int64_t>(&impact->v)) f.impact = static_cast<double>(*i);
      if (auto* d = std::get_if<double>(&impact->v)) f.impact = *d;
    }
    if (evidence) {
      f.evidence_step = evidence->step;
      f.evidence_artifact_id = evidence->artifact_id;
      f.evidence_row = row;
      // Without a row, fields come from the first row (a one-row summary, typically).
      const size_t r = row >= 0 ? static_cast<size_t>(row) : 0;
      if (r < evidence->rows.size()) {
        for (const std::string& field : rule.evidence_fields) {
          const int c = evidence->ColumnIndex(field);
          if (c >= 0) f.evidence_fields.emplace_back(field, evidence->rows[r][static_cast<size_t>(c)]);
        }
      }
    }
    table->rows.push_back({SqlValue::String(f.rule), SqlValue::String(SeverityName(f.severity)),
                           SqlValue::String(f.title), SqlValue::String(f.description),
                           SqlValue::String(f.evidence_artifact_id),
                           row >= 0 ? SqlValue::Int(row) : SqlValue::Null()});
    result_.findings.push_back(std::move(f));
    Emit(SkillEvent::Kind::kFinding, step.id, nullptr, &result_.findings.back(), "");
    return absl::OkStatus();
  }

  // The diagnose step's own result is the table of its findings.
  std::shared_ptr<StepResult> RunDiagnose(const Step& step) {
    auto r = NewResult(step, step.id);
    for (const char* name : {"rule", "severity", "title", "description", "evidence", "row"}) {
      r->columns.push_back({name, std::string_view(name) == "row" ? ColumnType::kNumber
                                                                  : ColumnType::kString, ""});
    }
    for (const Rule& rule : step.rules) {
      const std::string& evidence_id = rule.evidence_step.empty() ? rule.over : rule.evidence_step;
      const StepResult* evidence = nullptr;
      if (auto it = results_.find(evidence_id); it != results_.end() &&
                                                it->second->status == StepStatus::kOk) {
        evidence = it->second.get();
      }
      absl::Status st;
      if (rule.over.empty()) {
        auto cond = rule.condition.EvaluateCondition(scope_);
        int64_t row = -1;
        if (cond.ok() && *cond && rule.evidence_row) {
          auto v = rule.evidence_row->Evaluate(scope_);
          if (!v.ok()) {
            cond = v.status();
          } else if (auto* i = std::get_if<int64_t>(&v->v)) {
            row = *i;
          }
        }
        st = cond.ok() ? (*cond ? AddFinding(step, rule, evidence, row, r.get()) : absl::OkStatus())
                       : cond.status();
      } else {
        auto it = results_.find(rule.over);
        if (it == results_.end() || it->second->status != StepStatus::kOk) continue;
        const StepResult& over = *it->second;
        int found = 0;
        for (size_t i = 0; i < over.rows.size() && found < rule.max_findings && st.ok(); ++i) {
          scope_.SetRow(&over, i);
          auto cond = rule.condition.EvaluateCondition(scope_);
          if (!cond.ok()) {
            st = cond.status();
          } else if (*cond) {
            ++found;
            st = AddFinding(step, rule, rule.evidence_step.empty() ? &over : evidence,
                            rule.evidence_step.empty() ? static_cast<int64_t>(i) : -1, r.get());
          }
        }
        scope_.SetRow(nullptr, 0);
      }
      if (!st.ok()) {
        r->status = StepStatus::kFailed;
        r->message = absl::StrCat("rule '", rule.id, "': ", std::string(st.message()));
        return r;
      }
    }
    return r;
  }

  SkillExecutor& executor_;
  const SkillLibrary& library_;
  SkillQueryRunner& runner_;
  const ExecutionOptions& options_;
  const Skill& skill_;
  std::map<std::string, SqlValue> inputs_;
  const SkillExecutor::EventSink& sink_;
  int depth_;
  std::map<std::string, std::shared_ptr<const StepResult>> results_;
  RunScope scope_;
  SkillRunResult result_;
};

}  // namespace

absl::StatusOr<std::map<std::string, SqlValue>> SkillExecutor::ConvertParams(
    const Skill& skill, const std::map<std::string, std::string>& params) {
  std::map<std::string, SqlValue> values;
  std::vector<std::string> errors;
  for (const auto& [name, text] : params) {
    const SkillInput* input = skill.FindInput(name);
    if (!input) {
      errors.push_back(absl::StrCat("unknown input '", name, "'"));
      continue;
    }
    auto v = ConvertInputValue(*input, text);
    if (!v.ok()) {
      errors.push_back(std::string(v.status().message()));
      continue;
    }
    values[name] = *v;
  }
  std::vector<std::string> missing;
  for (const SkillInput& input : skill.inputs) {
    if (input.required && !values.count(input.name)) missing.push_back(input.name);
  }
  if (!missing.empty()) {
    errors.push_back(absl::StrCat("missing required input(s): ", absl::StrJoin(missing, ", ")));
  }
  if (!errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(errors, "; "));
  return values;
}

SkillRunResult SkillExecutor::Run(const Skill& skill,
                                  const std::map<std::string, std::string>& params,
                                  const EventSink& sink) {
  auto values = ConvertParams(skill, params);
  if (!values.ok()) {
    SkillRunResult r;
    r.skill = skill.name;
    r.outcome = SkillOutcome::kInvalidArgument;
    r.message = std::string(values.status().message());
    if (sink) sink({SkillEvent::Kind::kSkillError, skill.name, "", 0, nullptr, nullptr, r.message});
    return r;
  }
  return RunWithValues(skill, *values, sink, 0);
}

SkillRunResult SkillExecutor::RunWithValues(const Skill& skill,
                                            const std::map<std::string, SqlValue>& inputs,
                                            const EventSink& sink, int depth) {
  // Fill defaults; a required input without a value is an error; an optional one without a
  // default is NULL, so SQL can test `:x IS NULL`.
  std::map<std::string, SqlValue> values;
  std::vector<std::string> missing;
  for (const SkillInput& input : skill.inputs) {
    auto it = inputs.find(input.name);
    if (it != inputs.end() && !it->second.is_null()) {
      values[input.name] = it->second;
    } else if (input.default_value) {
      values[input.name] = *input.default_value;
    } else if (input.required) {
      missing.push_back(input.name);
    } else {
      values[input.name] = SqlValue::Null();
    }
  }
  if (!missing.empty()) {
    SkillRunResult r;
    r.skill = skill.name;
    r.outcome = SkillOutcome::kInvalidArgument;
    r.message = absl::StrCat("missing required input(s): ", absl::StrJoin(missing, ", "));
    if (sink) sink({SkillEvent::Kind::kSkillError, skill.name, "", depth, nullptr, nullptr, r.message});
    return r;
  }
  return SkillRun(*this, library_, runner_, options_, skill, values, sink, depth).Execute();
}

}  // namespace tw::skills
