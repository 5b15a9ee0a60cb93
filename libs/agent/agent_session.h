#pragma once
// What the LLM agent has gathered in a session: plan, hypotheses, artifacts, notes,
// uncertainties and the tool-call log. Tools read and write it; the verifier record and the
// report are built from it. It lives across the turns of one session over one trace; the resets
// below are the state-reset rules of DESIGN.md §5.

#include <cstdint>
#include <map>
#include <memory>
#include <set>
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

  // Artifacts added by the turn running now (dropped if it fails or is cancelled).
  std::set<std::string> turn_artifacts;

  bool HasArtifact(const std::string& id) const { return artifacts.count(id) > 0; }
  void AddArtifact(std::shared_ptr<const skills::StepResult> result) {
    turn_artifacts.insert(result->artifact_id);
    artifacts[result->artifact_id] = std::move(result);
  }

  // A turn begins: what the previous (finished) turn added is now the session's.
  void BeginTurn() { turn_artifacts.clear(); }
  // A turn ended in an error or was cancelled: nothing half-done carries over to the next turn —
  // its artifacts, the plan and hypotheses, the tool-call log, skill findings, uncertainties and
  // counters go. Notes and the artifacts of earlier finished turns stay.
  void ResetTurnState();
  // The session moves to another trace: nothing gathered on the previous trace stays (artifacts,
  // plan, hypotheses, findings, tool-call log, counters); the notes (the user's session) do.
  void ResetForTrace(const std::string& new_trace);
};

}  // namespace tw::agent
