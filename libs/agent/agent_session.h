#pragma once
// What one analysis (turn) of the LLM agent has gathered: plan, hypotheses, artifacts, notes,
// uncertainties and the tool-call log. Tools read and write it; the verifier record and the
// report are built from it.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "libs/agent/analysis_mode.h"
#include "libs/agent/analysis_plan.h"
#include "libs/agent/hypotheses.h"
#include "libs/skills/skill_executor.h"
#include "libs/skills/step_result.h"
#include "libs/strategy/strategy.h"

namespace tw::agent {

struct ToolCallRecord {
  std::string tool;
  std::string arguments;  // JSON as the model sent it
  bool ok = false;
  std::string error;
  std::string skill;      // invoke_skill
  std::vector<std::string> artifacts;
  int64_t elapsed_ns = 0;
};

struct AgentSession {
  std::string trace;
  const strategy::Strategy* strategy = nullptr;
  AnalysisMode mode = AnalysisMode::kFull;
  AnalysisPlan plan;
  HypothesisBoard hypotheses;
  std::map<std::string, std::shared_ptr<const skills::StepResult>> artifacts;
  std::vector<skills::Finding> skill_findings;  // diagnostic findings of the skills it ran
  std::vector<std::string> notes;
  std::vector<std::string> uncertainties;
  std::vector<ToolCallRecord> tool_calls;
  int data_results = 0;  // successful data-tool results (reflection nudge)
  int consecutive_failures = 0;
  int next_sql_artifact = 1;
  int next_comparison_artifact = 1;  // cmp-N: compare_skill / get_comparison_context results

  bool HasArtifact(const std::string& id) const { return artifacts.count(id) > 0; }
  void AddArtifact(std::shared_ptr<const skills::StepResult> result) {
    artifacts[result->artifact_id] = std::move(result);
  }
};

}  // namespace tw::agent
