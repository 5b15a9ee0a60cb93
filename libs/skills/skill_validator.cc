#include "libs/skills/skill_validator.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/query/perfetto_sql.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/stdlib/stdlib.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw::skills {

std::vector<std::string> SqlParameterNames(std::string_view sql, std::vector<std::string>* other) {
  std::vector<std::string> names;
  SqlTokenizer tokenizer(sql);
  for (SqlToken t = tokenizer.Next(); t.type != SqlTokenType::kEnd; t = tokenizer.Next()) {
    if (t.type != SqlTokenType::kVariable) continue;
    if (t.text.size() > 1 && t.text[0] == ':') {
      std::string name(t.text.substr(1));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    } else if (other) {
      other->emplace_back(t.text);
    }
  }
  return names;
}

namespace {

// An empty trace (no rows in any table) with the full schema: what skills' SQL is checked
// against. One per skill, so objects one skill's SQL creates cannot affect another's check.
class EmptyEngine {
 public:
  static std::unique_ptr<EmptyEngine> Open(std::string* error) {
    auto engine = std::unique_ptr<EmptyEngine>(new EmptyEngine());
    engine->storage_ = std::make_unique<TraceStorage>();
    auto db = TraceDatabase::Open(engine->storage_.get());
    if (!db.ok()) {
      *error = std::string(db.status().message());
      return nullptr;
    }
    engine->db_ = std::move(*db);
    return engine;
  }

  absl::Status Include(std::string_view module) {
    return db_->Execute(absl::StrCat("INCLUDE PERFETTO MODULE ", std::string(module), ";"))
        .status();
  }

  absl::StatusOr<std::set<std::string>> Tables() {
    auto r = db_->ListTablesAndViews();
    if (!r.ok()) return r.status();
    std::set<std::string> out;
    for (const auto& row : r->rows) {
      if (!row.empty() && row[0].type == SqlValue::Type::kString) out.insert(row[0].string_value);
    }
    return out;
  }

  // Runs `sql` over the empty tables with `params` bound: cheap, and it catches everything
  // preparing would plus errors SQLite only reports at the first step (a NULL LIMIT, say).
  absl::StatusOr<std::vector<std::string>> ColumnsOf(std::string_view sql,
                                                     const BoundParams& params) {
    TraceDatabaseRunner runner(db_.get());
    auto r = runner.Query(sql, params, 1);
    if (!r.ok()) return r.status();
    return r->columns;
  }

 private:
  EmptyEngine() = default;
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

// Column names known for a step's output; nullopt when they cannot be known statically.
using ColumnSet = std::optional<std::vector<std::string>>;

class SkillChecker {
 public:
  SkillChecker(const Skill& skill, const SkillLibrary& library, const ValidationOptions& options,
               std::vector<Diagnostic>* diags)
      : skill_(skill), library_(library), options_(options), diags_(diags) {}

  void Run() {
    CheckCallCycles();
    if (options_.check_against_engine) OpenEngine();
    std::set<std::string> earlier;
    for (const Step& step : skill_.steps) {
      CheckStep(step, earlier, /*row_step=*/nullptr);
      earlier.insert(step.id);
    }
    for (const SkillInput& input : skill_.inputs) {
      if (!used_inputs_.count(input.name)) {
        Warn(input.location, absl::StrCat("input '", input.name, "' is never used"));
      }
    }
  }

 private:
  void Error(const SourceLocation& loc, std::string message) {
    diags_->push_back({loc, std::move(message), false});
  }
  void Warn(const SourceLocation& loc, std::string message) {
    diags_->push_back({loc, std::move(message), true});
  }

  // A skill that reaches itself through `skill:` calls would only stop at the executor's depth
  // limit; say so at load time instead.
  void CheckCallCycles() {
    std::vector<std::string> path = {skill_.name};
    std::set<std::string> visiting = {skill_.name};
    std::function<bool(const Skill&)> visit = [&](const Skill& s) -> bool {
      std::vector<const Step*> calls;
      for (const Step& st : s.steps) {
        if (st.kind == Step::Kind::kSkill) calls.push_back(&st);
        if (st.kind == Step::Kind::kForEach && st.body && st.body->kind == Step::Kind::kSkill) {
          calls.push_back(st.body.get());
        }
      }
      for (const Step* st : calls) {
        if (st->skill == skill_.name && path.size() > 1) {
          path.push_back(st->skill);
          return true;
        }
        const Skill* callee = library_.Find(st->skill);
        if (!callee || visiting.count(callee->name)) continue;
        visiting.insert(callee->name);
        path.push_back(callee->name);
        if (visit(*callee)) return true;
        path.pop_back();
      }
      return false;
    };
    if (visit(skill_)) {
      Error(skill_.location, absl::StrCat("skill calls form a cycle: ", absl::StrJoin(path, " -> ")));
    }
  }

  void OpenEngine() {
    std::string error;
    engine_ = EmptyEngine::Open(&error);
    if (!engine_) {
      Error(skill_.location, absl::StrCat("cannot open an empty trace database: ", error));
      return;
    }
    for (const std::string& module : skill_.required_modules) {
      if (!FindSqlModule(module)) {
        Warn(skill_.requires_location,
             absl::StrCat("requires module '", module,
                          "', which this engine does not provide: the skill will report "
                          "\"not supported\" and its SQL is not checked"));
        sql_checkable_ = false;
        continue;
      }
      auto st = engine_->Include(module);
      if (!st.ok()) {
        Error(skill_.requires_location, absl::StrCat("module '", module, "' fails to include: ",
                                            std::string(st.message())));
        sql_checkable_ = false;
      }
    }
    auto tables = engine_->Tables();
    if (!tables.ok()) {
      Error(skill_.location, absl::StrCat("cannot list tables: ", std::string(tables.status().message())));
      return;
    }
    for (const std::string& table : skill_.required_tables) {
      if (!tables->count(table) && sql_checkable_) {
        Error(skill_.requires_location, absl::StrCat("requires table '", table,
                                            "', which is not in the engine's schema"));
      }
    }
  }

  // Checks expression references. `row_step`: the step whose rows `row` iterates (nullptr: no
  // row here).
  void CheckReferences(const std::vector<ExprReference>& refs, const SourceLocation& loc,
                       std::string_view what, const std::set<std::string>& earlier,
                       const Step* row_step) {
    for (const ExprReference& ref : refs) {
      switch (ref.kind) {
        case ExprReference::Kind::kInput:
          if (!skill_.FindInput(ref.name)) {
            Error(loc, absl::StrCat(std::string(what), ": no input '", ref.name, "'"));
          }
          used_inputs_.insert(ref.name);
          break;
        case ExprReference::Kind::kStep:
          if (!earlier.count(ref.name)) {
            Error(loc, absl::StrCat(std::string(what), ": 'steps.", ref.name, "' is not an ",
                                    skill_.FindStep(ref.name) ? "earlier" : "existing", " step"));
          } else if (!ref.column.empty()) {
            CheckColumn(ref.name, ref.column, loc, what);
          }
          break;
        case ExprReference::Kind::kRow:
          if (!row_step) {
            Error(loc, absl::StrCat(std::string(what),
                                    ": 'row' is only available in for_each bodies and rules "
                                    "with 'over'"));
          } else {
            CheckColumn(row_step->id, ref.name, loc, what);
          }
          break;
      }
    }
  }

  void CheckColumn(const std::string& step, const std::string& column, const SourceLocation& loc,
                   std::string_view what) {
    auto it = columns_.find(step);
    if (it == columns_.end() || !it->second) return;
    const auto& cols = *it->second;
    if (std::find(cols.begin(), cols.end(), column) == cols.end()) {
      Error(loc, absl::StrCat(std::string(what), ": step '", step, "' has no column '", column,
                              "' (it has: ", absl::StrJoin(cols, ", "), ")"));
    }
  }

  void CheckStep(const Step& step, const std::set<std::string>& earlier, const Step* row_step) {
    if (step.when) {
      CheckReferences(step.when->References(), step.location, "when", earlier, row_step);
    }
    ColumnSet columns;
    switch (step.kind) {
      case Step::Kind::kSql:
        columns = CheckSql(step, earlier, row_step);
        break;
      case Step::Kind::kSkill:
        CheckSkillCall(step, earlier, row_step);
        break;
      case Step::Kind::kForEach: {
        const Step* over = skill_.FindStep(step.over);
        if (!earlier.count(step.over) || !over) {
          Error(step.location, absl::StrCat("for_each: '", step.over, "' is not an earlier step"));
          break;
        }
        if (step.body) {
          CheckStep(*step.body, earlier, over);
          auto it = columns_.find(step.body->id);
          if (it != columns_.end()) columns = it->second;
        }
        break;
      }
      case Step::Kind::kDiagnose:
        for (const Rule& rule : step.rules) CheckRule(rule, earlier);
        break;
    }
    columns_[step.id] = columns;
    if (columns) {
      for (const DisplayColumn& col : step.display.columns) {
        if (std::find(columns->begin(), columns->end(), col.name) == columns->end()) {
          Error(col.location, absl::StrCat("display column '", col.name, "' is not produced by step '",
                                           step.id, "' (it has: ", absl::StrJoin(*columns, ", "),
                                           ")"));
        }
      }
    }
  }

  ColumnSet CheckSql(const Step& step, const std::set<std::string>& earlier, const Step* row_step) {
    std::vector<std::string> other;
    const std::vector<std::string> names = SqlParameterNames(step.sql, &other);
    for (const std::string& o : other) {
      Error(step.sql_location, absl::StrCat("SQL parameter '", o,
                                            "': only :name parameters are allowed"));
    }
    for (const std::string& name : names) {
      if (step.params.count(name)) continue;
      if (skill_.FindInput(name)) {
        used_inputs_.insert(name);
        continue;
      }
      Error(step.sql_location, absl::StrCat("SQL parameter ':", name,
                                            "' is neither an input nor in the step's params"));
    }
    for (const auto& [name, expr] : step.params) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        Warn(step.location, absl::StrCat("param '", name, "' is not used by the SQL"));
      }
      CheckReferences(expr.References(), step.location, absl::StrCat("params.", name), earlier,
                      row_step);
    }
    if (!engine_ || !sql_checkable_) return std::nullopt;
    // Inputs take their default, or a value of their type, as a caller could pass; step params
    // depend on results, so they are NULL.
    BoundParams bound;
    for (const std::string& name : names) {
      SqlValue v;
      const SkillInput* input = step.params.count(name) ? nullptr : skill_.FindInput(name);
      if (input && input->default_value) {
        v = *input->default_value;
      } else if (input && input->type == InputType::kString) {
        v = SqlValue::String("");
      } else if (input && input->type == InputType::kEnum) {
        v = SqlValue::String(input->values.empty() ? "" : input->values[0]);
      } else if (input) {
        v = SqlValue::Int(0);
      }
      bound.emplace_back(name, v);
    }
    auto cols = engine_->ColumnsOf(step.sql, bound);
    if (!cols.ok()) {
      Error(step.sql_location, absl::StrCat("SQL of step '", step.id, "' fails on the empty schema: ",
                                            std::string(cols.status().message())));
      return std::nullopt;
    }
    return *cols;
  }

  void CheckSkillCall(const Step& step, const std::set<std::string>& earlier, const Step* row_step) {
    for (const auto& [name, expr] : step.args) {
      CheckReferences(expr.References(), step.location, absl::StrCat("args.", name), earlier,
                      row_step);
    }
    if (step.skill == skill_.name) {
      Error(step.location, "a skill cannot call itself");
      return;
    }
    const Skill* callee = library_.Find(step.skill);
    if (!callee) {
      Error(step.location, absl::StrCat("calls unknown skill '", step.skill, "'"));
      return;
    }
    for (const auto& [name, expr] : step.args) {
      if (!callee->FindInput(name)) {
        Error(step.location, absl::StrCat("skill '", step.skill, "' has no input '", name, "'"));
      }
    }
    for (const SkillInput& input : callee->inputs) {
      if (input.required && !step.args.count(input.name)) {
        Error(step.location, absl::StrCat("skill '", step.skill, "' needs input '", input.name, "'"));
      }
    }
  }

  void CheckRule(const Rule& rule, const std::set<std::string>& earlier) {
    const Step* over = nullptr;
    if (!rule.over.empty()) {
      over = skill_.FindStep(rule.over);
      if (!earlier.count(rule.over) || !over) {
        Error(rule.location, absl::StrCat("rule '", rule.id, "': over '", rule.over,
                                          "' is not an earlier step"));
        over = nullptr;
      }
    }
    const std::string what = absl::StrCat("rule '", rule.id, "'");
    CheckReferences(rule.condition.References(), rule.location, what, earlier, over);
    CheckReferences(rule.title.References(), rule.location, what, earlier, over);
    CheckReferences(rule.description.References(), rule.location, what, earlier, over);
    for (const Template& s : rule.suggestions) {
      CheckReferences(s.References(), rule.location, what, earlier, over);
    }
    if (rule.cause) CheckReferences(rule.cause->References(), rule.location, what, earlier, over);
    if (rule.severity_template) {
      CheckReferences(rule.severity_template->References(), rule.location, what, earlier, over);
    }
    if (rule.impact) CheckReferences(rule.impact->References(), rule.location, what, earlier, over);
    if (rule.evidence_row) {
      if (!rule.over.empty() && rule.evidence_step.empty()) {
        Error(rule.location, absl::StrCat(what, ": evidence.row is for rules without 'over' (or "
                                                "with evidence.step)"));
      }
      CheckReferences(rule.evidence_row->References(), rule.location, what, earlier, over);
    }
    const std::string evidence = rule.evidence_step.empty() ? rule.over : rule.evidence_step;
    if (!rule.evidence_fields.empty() && evidence.empty()) {
      Error(rule.location, absl::StrCat(what, ": evidence fields need evidence.step or over"));
    }
    if (!evidence.empty()) {
      if (!earlier.count(evidence)) {
        Error(rule.location, absl::StrCat(what, ": evidence step '", evidence,
                                          "' is not an earlier step"));
      } else {
        for (const std::string& f : rule.evidence_fields) CheckColumn(evidence, f, rule.location, what);
      }
    }
  }

  const Skill& skill_;
  const SkillLibrary& library_;
  const ValidationOptions& options_;
  std::vector<Diagnostic>* diags_;
  std::unique_ptr<EmptyEngine> engine_;
  bool sql_checkable_ = true;
  std::map<std::string, ColumnSet> columns_;
  std::set<std::string> used_inputs_;
};

}  // namespace

void ValidateSkill(const Skill& skill, const SkillLibrary& library,
                   const ValidationOptions& options, std::vector<Diagnostic>* diagnostics) {
  SkillChecker(skill, library, options, diagnostics).Run();
}

std::vector<Diagnostic> ValidateSkillDirectory(const std::string& dir,
                                               const ValidationOptions& options) {
  std::vector<Diagnostic> diagnostics;
  SkillLibrary library = SkillLibrary::LoadDirectory(dir, &diagnostics);
  for (const Skill* skill : library.All()) ValidateSkill(*skill, library, options, &diagnostics);
  return diagnostics;
}

}  // namespace tw::skills
