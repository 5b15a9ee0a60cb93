#include "libs/agent/agent_session.h"

namespace tw::agent {

void AgentSession::ResetTurnState() {
  for (const std::string& id : turn_artifacts) artifacts.erase(id);
  turn_artifacts.clear();
  plan = AnalysisPlan();
  hypotheses = HypothesisBoard();
  skill_findings.clear();
  uncertainties.clear();
  tool_calls.clear();
  data_results = 0;
  consecutive_failures = 0;
}

void AgentSession::ResetForTrace(const std::string& new_trace) {
  std::vector<std::string> kept_notes = std::move(notes);
  *this = AgentSession();
  trace = new_trace;
  notes = std::move(kept_notes);
}

}  // namespace tw::agent
