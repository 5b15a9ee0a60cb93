#include "libs/agent/agent_events.h"

namespace tw::agent {

const char* AgentEventKindName(AgentEventKind kind) {
  switch (kind) {
    case AgentEventKind::kProgress: return "progress";
    case AgentEventKind::kTextDelta: return "text_delta";
    case AgentEventKind::kToolCall: return "tool_call";
    case AgentEventKind::kToolResult: return "tool_result";
    case AgentEventKind::kClientToolRequest: return "client_tool_request";
    case AgentEventKind::kDataEnvelope: return "data_envelope";
    case AgentEventKind::kPlan: return "plan";
    case AgentEventKind::kHypothesis: return "hypothesis";
    case AgentEventKind::kFinding: return "finding";
    case AgentEventKind::kVerifierIssues: return "verifier_issues";
    case AgentEventKind::kCorrection: return "correction";
    case AgentEventKind::kConclusion: return "conclusion";
    case AgentEventKind::kUsage: return "usage";
    case AgentEventKind::kError: return "error";
    case AgentEventKind::kDone: return "done";
  }
  return "unknown";
}

}  // namespace tw::agent
