#include "libs/agent/procedure_run.h"

#include "absl/strings/str_cat.h"

namespace tw::agent {
namespace {

const char* StatusName(skills::SkillOutcome outcome) {
  switch (outcome) {
    case skills::SkillOutcome::kOk: return "ok";
    case skills::SkillOutcome::kNotSupported: return "not_supported";
    case skills::SkillOutcome::kInvalidArgument:
    case skills::SkillOutcome::kError: return "failed";
  }
  return "failed";
}

}  // namespace

bool EvaluateCondition(const std::string& text, const skills::ExprScope& scope,
                       const std::string& where, std::string* error) {
  if (text.empty()) return true;
  auto expr = skills::Expression::Parse(text);
  if (!expr.ok()) {
    *error = absl::StrCat(where, ": ", expr.status().message());
    return false;
  }
  auto value = expr->EvaluateCondition(scope);
  if (!value.ok()) {
    *error = absl::StrCat(where, ": ", value.status().message());
    return false;
  }
  return *value;
}

absl::StatusOr<std::map<std::string, SqlValue>> EvaluateParams(
    const strategy::ParamExpressions& params, const skills::ExprScope& scope) {
  std::map<std::string, SqlValue> out;
  for (const auto& [name, text] : params) {
    auto expr = skills::Expression::Parse(text);
    if (!expr.ok()) return expr.status();
    auto value = expr->Evaluate(scope);
    if (!value.ok()) return value.status();
    auto sql = value->ToSql();
    if (!sql.ok()) return sql.status();
    out[name] = *sql;
  }
  return out;
}

// The procedure of one scene: its own scope (context + its results) and ids.
class ProcedureRunner::SceneRun {
 public:
  SceneRun(ProcedureRunner& runner, const strategy::Strategy& strategy)
      : runner_(runner), strategy_(strategy), scope_(runner.base_) {}

  void Execute() {
    for (const auto& step : strategy_.procedure.probes) RunStep(step);
    for (const auto& step : strategy_.procedure.steps) RunStep(step);
    for (const auto& drill : strategy_.procedure.drills) RunDrill(drill);
  }

 private:
  void RunStep(const strategy::ProcedureStep& step) {
    std::string error;
    if (!EvaluateCondition(step.when, scope_, absl::StrCat("when of ", step.id), &error)) {
      scope_.Set(step.id, nullptr);
      runner_.Skip(step.id, step.skill, error);
      return;
    }
    auto params = EvaluateParams(step.params, scope_);
    if (!params.ok()) {
      scope_.Set(step.id, nullptr);
      runner_.Skip(step.id, step.skill, absl::StrCat("parameters: ", params.status().message()));
      return;
    }
    auto run = std::make_unique<ProcedureRunRecord>();
    run->id = step.id;
    run->skill = step.skill;
    run->scene = strategy_.scene;
    const ProcedureRunRecord* done = runner_.Execute(std::move(run), *params);
    outputs_[step.id] = done;
    scope_.Set(step.id, done->result.Output());
  }

  void RunDrill(const strategy::Drill& drill) {
    if (drill.over.empty()) {
      std::string error;
      if (!EvaluateCondition(drill.where, scope_, absl::StrCat("where of ", drill.id), &error)) {
        runner_.Skip(drill.id, drill.skill, error);
        return;
      }
      RunDrillOnce(drill, drill.id);
      scope_.Set(drill.id, nullptr);
      return;
    }
    scope_.Set(drill.id, nullptr);
    auto it = outputs_.find(drill.over);
    const skills::StepResult* over = it == outputs_.end() ? nullptr : it->second->result.Output();
    if (!over) {
      runner_.Skip(drill.id, drill.skill, "");
      return;
    }
    int ran = 0;
    for (size_t i = 0; i < over->rows.size() && ran < drill.max_items; ++i) {
      scope_.SetRow(over, i);
      std::string error;
      const bool take =
          EvaluateCondition(drill.where, scope_, absl::StrCat("where of ", drill.id), &error);
      if (!error.empty()) {
        scope_.ClearRow();
        runner_.Skip(drill.id, drill.skill, error);
        return;
      }
      if (!take) continue;
      RunDrillOnce(drill, absl::StrCat(drill.id, "[", i, "]"));
      ++ran;
    }
    scope_.ClearRow();
    if (ran == 0) runner_.Skip(drill.id, drill.skill, "");
  }

  void RunDrillOnce(const strategy::Drill& drill, const std::string& id) {
    auto params = EvaluateParams(drill.params, scope_);
    if (!params.ok()) {
      runner_.Skip(id, drill.skill, absl::StrCat("parameters: ", params.status().message()));
      return;
    }
    auto run = std::make_unique<ProcedureRunRecord>();
    run->id = id;
    run->skill = drill.skill;
    run->why = drill.why;
    run->scene = strategy_.scene;
    run->drill = drill.id;
    run->over = drill.over;
    runner_.Execute(std::move(run), *params);
  }

  ProcedureRunner& runner_;
  const strategy::Strategy& strategy_;
  ProcedureScope scope_;
  std::map<std::string, const ProcedureRunRecord*> outputs_;
};

const ProcedureRunRecord* ProcedureRunner::Execute(std::unique_ptr<ProcedureRunRecord> run,
                                                   const std::map<std::string, SqlValue>& unbound) {
  std::map<std::string, SqlValue> params = unbound;
  BindSelection(run->skill, params);
  const bool cached = skills_.Cached(run->skill, params);
  run->result = skills_.Run(run->skill, params);
  if (!cached) {
    AnalysisStep step;
    step.id = run->id;
    step.skill = run->skill;
    step.why = run->why;
    step.status = StatusName(run->result.outcome);
    step.message = run->result.message;
    step.elapsed_ns = run->result.elapsed_ns;
    if (const skills::StepResult* out = run->result.Output()) step.artifacts.push_back(out->artifact_id);
    if (run->result.outcome == skills::SkillOutcome::kNotSupported) {
      report_.limits.push_back(absl::StrCat(run->skill, ": ", run->result.message));
    } else if (run->result.outcome != skills::SkillOutcome::kOk) {
      report_.limits.push_back(absl::StrCat(run->skill, " failed: ", run->result.message));
    }
    report_.steps.push_back(std::move(step));
    if (on_step_) on_step_(report_.steps.back());
  }
  runs_.push_back(std::move(run));
  return runs_.back().get();
}

void ProcedureRunner::BindSelection(const std::string& skill,
                                    std::map<std::string, SqlValue>& params) {
  if (!selection_ || BindWindow(selection_->window, skills_, skill, params)) return;
  if (params.count("start_ts") || !unscoped_.insert(skill).second) return;
  const std::string& label = selection_->label;
  report_.limits.push_back(absl::StrCat(skill, " takes no time window: its results cover the whole trace, not only ",
                                        label.substr(label.find(' ') + 1), "."));
}

void ProcedureRunner::Skip(const std::string& id, const std::string& skill,
                           const std::string& message) {
  AnalysisStep step;
  step.id = id;
  step.skill = skill;
  step.status = message.empty() ? "skipped" : "failed";
  step.message = message.empty() ? "condition not met" : message;
  if (!message.empty()) report_.limits.push_back(absl::StrCat(skill, ": ", message));
  report_.steps.push_back(std::move(step));
}

void ProcedureRunner::RunContext(const std::vector<strategy::ProcedureStep>& probes) {
  for (const strategy::ProcedureStep& probe : probes) {
    std::string error;
    if (!EvaluateCondition(probe.when, base_, absl::StrCat("when of ", probe.id), &error)) {
      base_.Set(probe.id, nullptr);
      Skip(probe.id, probe.skill, error);
      continue;
    }
    const ProcedureRunRecord* run = RunWithContext(probe.id, probe.skill, probe.params, "");
    base_.Set(probe.id, run ? run->result.Output() : nullptr);
  }
}

const ProcedureRunRecord* ProcedureRunner::RunWithContext(const std::string& id,
                                                          const std::string& skill,
                                                          const strategy::ParamExpressions& params,
                                                          const std::string& why) {
  auto values = EvaluateParams(params, base_);
  if (!values.ok()) {
    Skip(id, skill, absl::StrCat("parameters: ", values.status().message()));
    return nullptr;
  }
  auto run = std::make_unique<ProcedureRunRecord>();
  run->id = id;
  run->skill = skill;
  run->why = why;
  return Execute(std::move(run), *values);
}

void ProcedureRunner::RunScene(const strategy::Strategy& scene) { SceneRun(*this, scene).Execute(); }

}  // namespace tw::agent
