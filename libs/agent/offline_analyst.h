#pragma once
// The offline analyst: a full, deterministic diagnosis without an LLM. It reads the question
// (its scene, whether it wants a yes or a no, change over time, an app it names), runs the
// context probes and every scene's signal on the trace, decides which scenes to analyse
// (scene_plan.h: the question's, and those whose signals show a problem when the question is
// general or its own scene is clean), runs their procedures (probes, steps, then drills whose
// thresholds the results cross), turns the skills' findings into a ranked report with a direct
// answer first (answer_line.h), a causal chain along the drills and recommendations, and has the
// verifier check it.

#include <functional>
#include <string>

#include "libs/agent/analysis_report.h"
#include "libs/agent/selection_scope.h"
#include "libs/agent/skill_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/verify/verifier.h"

namespace tw::agent {

struct OfflineAnalystOptions {
  std::string scene;   // force a scene instead of classifying the question
  size_t max_findings = 12;
  size_t max_recommendations = 8;
  // Called after each skill run (progress for long analyses); may be empty.
  std::function<void(const AnalysisStep&)> on_step;
  // The user's selection: skills that take start_ts/end_ts run on its window (unless the
  // strategy sets them), the report states its label, and its limits name the skills that could
  // not be bounded.
  std::optional<SelectionScope> scope;
};

class OfflineAnalyst {
 public:
  // `verifier` may be null (no verification; the report says so).
  OfflineAnalyst(const strategy::StrategyLibrary& strategies, SkillRunner& skills,
                 verify::VerifierClient* verifier)
      : strategies_(strategies), skills_(skills), verifier_(verifier) {}

  AnalysisReport Analyze(const std::string& question, const std::string& trace_label,
                         const OfflineAnalystOptions& options = {});

 private:
  const strategy::StrategyLibrary& strategies_;
  SkillRunner& skills_;
  verify::VerifierClient* verifier_;
};

}  // namespace tw::agent
