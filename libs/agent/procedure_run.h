#pragma once
// Runs strategy procedures for the offline analyst: context probes, then one or more scenes'
// probes, steps and threshold-driven drills, every skill through one (caching) SkillRunner and
// every run recorded once in the report's method section. Each scene sees the context probes
// and the question's inputs plus its own results (`steps.<id>`, `row` in drills).

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "libs/agent/analysis_report.h"
#include "libs/agent/caching_skill_runner.h"
#include "libs/agent/procedure_scope.h"
#include "libs/agent/selection_scope.h"
#include "libs/strategy/strategy.h"

namespace tw::agent {

// One skill run of a diagnosis and what it means for the report.
struct ProcedureRunRecord {
  std::string id;
  std::string skill;
  std::string why;
  std::string scene;  // the scene whose procedure ran it; "" for context probes and signals
  std::string drill;  // drill id when run by a drill
  std::string over;   // the step whose rows triggered the drill, if any
  skills::SkillRunResult result;
};

class ProcedureRunner {
 public:
  // `on_step` (may be empty) is called after each recorded step.
  ProcedureRunner(CachingSkillRunner& skills, AnalysisReport& report,
                  std::function<void(const AnalysisStep&)> on_step)
      : skills_(skills), report_(report), on_step_(std::move(on_step)) {}

  // The question's inputs (`inputs.<name>`) for every expression that follows.
  void SetInput(const std::string& name, skills::ExprValue value) { base_.SetInput(name, value); }
  // The user's selection (may be null): skills that take start_ts/end_ts run on its window
  // (unless the strategy sets them); the report's limits name the skills it could not bound.
  void SetSelection(const SelectionScope* selection) { selection_ = selection; }
  // Context probes: their results become `steps.<id>` in every later expression.
  void RunContext(const std::vector<strategy::ProcedureStep>& probes);
  // Runs `skill` with parameters evaluated against the context; records it as `id` with `why`.
  // Returns the run, or nullptr when the parameters could not be evaluated (recorded as failed).
  const ProcedureRunRecord* RunWithContext(const std::string& id, const std::string& skill,
                                           const strategy::ParamExpressions& params,
                                           const std::string& why);
  // One scene's procedure: probes, steps, then drills.
  void RunScene(const strategy::Strategy& scene);

  const std::vector<std::unique_ptr<ProcedureRunRecord>>& runs() const { return runs_; }
  // A scope over the context (and inputs), for evaluating strategy expressions outside a run.
  ProcedureScope& context_scope() { return base_; }

 private:
  class SceneRun;

  // Runs and records (once: a cached run of the same skill and inputs is not listed again).
  const ProcedureRunRecord* Execute(std::unique_ptr<ProcedureRunRecord> run,
                                    const std::map<std::string, SqlValue>& params);
  void Skip(const std::string& id, const std::string& skill, const std::string& message);
  void BindSelection(const std::string& skill, std::map<std::string, SqlValue>& params);

  CachingSkillRunner& skills_;
  AnalysisReport& report_;
  std::function<void(const AnalysisStep&)> on_step_;
  ProcedureScope base_;
  std::vector<std::unique_ptr<ProcedureRunRecord>> runs_;
  const SelectionScope* selection_ = nullptr;
  std::set<std::string> unscoped_;  // skills already named as not bounded by the selection
};

// Evaluates `text` (empty = true) as a condition; a broken expression returns false with
// `error` set.
bool EvaluateCondition(const std::string& text, const skills::ExprScope& scope,
                       const std::string& where, std::string* error);
// Evaluates parameter expressions into skill inputs.
absl::StatusOr<std::map<std::string, SqlValue>> EvaluateParams(
    const strategy::ParamExpressions& params, const skills::ExprScope& scope);

}  // namespace tw::agent
