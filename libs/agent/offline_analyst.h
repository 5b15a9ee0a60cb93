#pragma once
// The offline analyst: a full, deterministic diagnosis without an LLM. It classifies the
// question into a scene, runs that scene's procedure (probes, mandatory steps, then drills whose
// thresholds the results cross), turns the skills' diagnostic findings into a ranked report with
// a causal chain along the drills and recommendations, and has the verifier check it.

#include <functional>
#include <string>

#include "libs/agent/analysis_report.h"
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
