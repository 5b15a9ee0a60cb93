#include "libs/strategy/strategy_validator.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "libs/skills/expression.h"
#include "libs/skills/skill_validator.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw::strategy {
namespace {

using Columns = std::optional<std::vector<std::string>>;  // nullopt: unknown, not checked

// Output columns of skills, found by running their output step's SQL over an empty trace.
class OutputColumns {
 public:
  explicit OutputColumns(const skills::SkillLibrary& skills) : skills_(skills) {
    auto db = TraceDatabase::Open(&storage_);
    if (db.ok()) db_ = std::move(*db);
  }

  Columns Of(const std::string& skill_name, int depth = 0) {
    auto cached = cache_.find(skill_name);
    if (cached != cache_.end()) return cached->second;
    Columns result = Compute(skill_name, depth);
    cache_[skill_name] = result;
    return result;
  }

 private:
  Columns Compute(const std::string& skill_name, int depth) {
    const skills::Skill* skill = skills_.Find(skill_name);
    if (!skill || !db_ || depth > 4) return std::nullopt;
    // Mirrors SkillRunResult::Output(): the declared `output` step, else the last top-level
    // step that is not a diagnose step.
    const skills::Step* output = nullptr;
    for (const skills::Step& step : skill->steps) {
      if (skill->output.empty() ? step.kind != skills::Step::Kind::kDiagnose
                                : step.id == skill->output) {
        output = &step;
      }
    }
    if (!output) return std::nullopt;
    if (output->kind == skills::Step::Kind::kSkill) return Of(output->skill, depth + 1);
    if (output->kind != skills::Step::Kind::kSql) return std::nullopt;
    for (const std::string& module : skill->required_modules) {
      if (!db_->Execute(absl::StrCat("INCLUDE PERFETTO MODULE ", module, ";")).ok()) {
        return std::nullopt;  // the engine lacks it: the skill validator reports that
      }
    }
    QueryOptions options;
    options.timeout = absl::Seconds(10);
    options.max_rows = 1;
    auto r = db_->Execute(output->sql, options);
    if (!r.ok()) return std::nullopt;
    return r->columns;
  }

  const skills::SkillLibrary& skills_;
  TraceStorage storage_;
  std::unique_ptr<TraceDatabase> db_;
  std::map<std::string, Columns> cache_;
};

class Validator {
 public:
  Validator(const Strategy& strategy, const skills::SkillLibrary& skills, OutputColumns& columns,
            std::vector<StrategyDiagnostic>& out,
            const std::vector<ProcedureStep>& context_probes = {})
      : s_(strategy), skills_(skills), columns_(columns), out_(out) {
    // Context probes run before every procedure: their ids are known everywhere.
    for (const ProcedureStep& probe : context_probes) skill_of_id_[probe.id] = probe.skill;
  }

  // The context probes themselves (from context.md), checked in order.
  void RunProbes(const std::vector<ProcedureStep>& probes) {
    for (const ProcedureStep& step : probes) CheckStep(step);
  }

  void Run() {
    if (!s_.signal.empty()) CheckSignal(s_.signal);
    for (const Phase& phase : s_.phases) {
      for (const std::string& skill : phase.critical_skills) {
        if (!skills_.Find(skill)) {
          Error(0, absl::StrCat("phase '", phase.id, "' names unknown skill '", skill, "'"));
        }
      }
    }
    for (const ProcedureStep& step : s_.procedure.probes) CheckStep(step);
    for (const ProcedureStep& step : s_.procedure.steps) CheckStep(step);
    for (const Drill& drill : s_.procedure.drills) CheckDrill(drill);
  }

 private:
  void Error(int line, std::string message) {
    out_.push_back({s_.source_path, line, std::move(message)});
  }

  // Parses `text` and checks what it refers to. `row_skill` is the skill whose output rows
  // `row` iterates (empty when `row` is not defined here).
  void CheckExpression(const std::string& text, int line, const std::string& what,
                       const std::string& row_skill) {
    if (text.empty()) return;
    auto expr = skills::Expression::Parse(text);
    if (!expr.ok()) {
      Error(line, absl::StrCat("invalid expression in ", what, " '", text, "': ",
                               expr.status().message()));
      return;
    }
    for (const skills::ExprReference& ref : expr->References()) {
      switch (ref.kind) {
        case skills::ExprReference::Kind::kInput: {
          bool known = false;
          for (const char* input : kProcedureInputs) known |= ref.name == input;
          if (!known) {
            Error(line, absl::StrCat(what, ": procedures have no input '", ref.name,
                                     "' (they have: ", absl::StrJoin(kProcedureInputs, ", "), ")"));
          }
          break;
        }
        case skills::ExprReference::Kind::kStep: {
          auto it = skill_of_id_.find(ref.name);
          if (it == skill_of_id_.end()) {
            Error(line, absl::StrCat(what, ": 'steps.", ref.name,
                                     "' is not an earlier probe, step or drill"));
          } else if (!ref.column.empty()) {
            CheckColumn(it->second, ref.column, line, what);
          }
          break;
        }
        case skills::ExprReference::Kind::kRow:
          if (row_skill.empty()) {
            Error(line, absl::StrCat(what, ": 'row' is only defined in drills with 'over'"));
          } else {
            CheckColumn(row_skill, ref.name, line, what);
          }
          break;
      }
    }
  }

  void CheckColumn(const std::string& skill, const std::string& column, int line,
                   const std::string& what) {
    Columns cols = columns_.Of(skill);
    if (!cols) return;
    if (std::find(cols->begin(), cols->end(), column) == cols->end()) {
      Error(line, absl::StrCat(what, ": the output of skill '", skill, "' has no column '", column,
                               "' (it has: ", absl::StrJoin(*cols, ", "), ")"));
    }
  }

  void CheckParams(const std::string& skill_name, const ParamExpressions& params, int line,
                   const std::string& row_skill) {
    const skills::Skill* skill = skills_.Find(skill_name);
    for (const auto& [name, text] : params) {
      if (skill && !skill->FindInput(name)) {
        Error(line, absl::StrCat("skill '", skill_name, "' has no input '", name, "'"));
      }
      CheckExpression(text, line, absl::StrCat("params.", name), row_skill);
    }
    if (!skill) return;
    for (const skills::SkillInput& input : skill->inputs) {
      if (input.required && !input.default_value && !params.count(input.name)) {
        Error(line, absl::StrCat("skill '", skill_name, "' needs input '", input.name, "'"));
      }
    }
  }

  void CheckStep(const ProcedureStep& step) {
    if (!skills_.Find(step.skill)) {
      Error(step.line, absl::StrCat("unknown skill '", step.skill, "'"));
    }
    CheckExpression(step.when, step.line, "when", "");
    CheckParams(step.skill, step.params, step.line, "");
    skill_of_id_[step.id] = step.skill;
  }

  // A signal runs after the context probes and before any step: `row` is its skill's first
  // output row.
  void CheckSignal(const SceneSignal& signal) {
    if (!skills_.Find(signal.skill)) {
      Error(signal.line, absl::StrCat("signal: unknown skill '", signal.skill, "'"));
    }
    CheckParams(signal.skill, signal.params, signal.line, "");
    CheckExpression(signal.has_data, signal.line, "signal.has_data", signal.skill);
    CheckExpression(signal.problem, signal.line, "signal.problem", signal.skill);
    auto tmpl = skills::Template::Parse(signal.summary);
    if (!tmpl.ok()) {
      Error(signal.line, absl::StrCat("invalid template in signal.summary: ", tmpl.status().message()));
      return;
    }
    for (const skills::ExprReference& ref : tmpl->References()) {
      if (ref.kind == skills::ExprReference::Kind::kRow) {
        CheckColumn(signal.skill, ref.name, signal.line, "signal.summary");
      } else {
        Error(signal.line, "signal.summary: may only read 'row'");
      }
    }
  }

  void CheckDrill(const Drill& drill) {
    if (!skills_.Find(drill.skill)) {
      Error(drill.line, absl::StrCat("unknown skill '", drill.skill, "'"));
    }
    std::string row_skill;
    if (!drill.over.empty()) {
      auto it = skill_of_id_.find(drill.over);
      if (it != skill_of_id_.end()) row_skill = it->second;
    }
    CheckExpression(drill.where, drill.line, "where", row_skill);
    CheckParams(drill.skill, drill.params, drill.line, row_skill);
    skill_of_id_[drill.id] = drill.skill;
  }

  const Strategy& s_;
  const skills::SkillLibrary& skills_;
  OutputColumns& columns_;
  std::vector<StrategyDiagnostic>& out_;
  std::map<std::string, std::string> skill_of_id_;  // procedure id → skill
};

}  // namespace

std::string StrategyDiagnostic::ToString() const {
  return absl::StrCat(file, ":", line, ": error: ", message);
}

std::vector<StrategyDiagnostic> ValidateStrategies(const StrategyLibrary& strategies,
                                                   const skills::SkillLibrary& skills) {
  std::vector<StrategyDiagnostic> out;
  OutputColumns columns(skills);
  if (!strategies.context_probes().empty()) {
    Strategy context;
    context.source_path = "context.md";
    Validator(context, skills, columns, out).RunProbes(strategies.context_probes());
  }
  for (const Strategy& s : strategies.strategies()) {
    Validator(s, skills, columns, out, strategies.context_probes()).Run();
  }
  return out;
}

}  // namespace tw::strategy
