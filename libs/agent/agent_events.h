#pragma once
// What the agent tells its client while it works (DESIGN.md §6): progress, streamed text, tool
// calls and results, data envelopes, plan and hypothesis updates, findings, verifier issues,
// the conclusion, errors, usage and done, and the requests of client-side tools. The orchestrator numbers them per session, persists
// them and streams them; the CLI prints them.

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace tw::agent {

enum class AgentEventKind {
  kProgress,        // scene, mode, iteration, "verifying", ...
  kTextDelta,       // streamed model text (thought while tools follow, answer at the end)
  kToolCall,        // {id, tool, arguments}
  kToolResult,      // {id, tool, ok, summary, artifacts[, client, request_id]}
  // The model called a client-side tool: {request_id, tool, arguments, deadline_unix_ns,
  // timeout_ms}; the turn waits until SubmitToolResult answers it (or it times out).
  kClientToolRequest,
  kDataEnvelope,    // {artifact, title, columns, rows (first few), total_rows}
  kPlan,            // {plan} after submit/revise/update
  kHypothesis,      // {hypotheses} after submit/resolve
  kFinding,         // one parsed finding of the final answer
  kVerifierIssues,  // {passed, issues[]}
  kCorrection,      // {round, prompt}: the answer goes back to the model
  kConclusion,      // {answer, verified}
  kUsage,           // {input_tokens, output_tokens, cached_input_tokens}
  kError,           // {code, message}
  kDone,            // {status}
};

const char* AgentEventKindName(AgentEventKind kind);

struct AgentEvent {
  AgentEventKind kind = AgentEventKind::kProgress;
  nlohmann::json data = nlohmann::json::object();
};

using AgentEventSink = std::function<void(const AgentEvent&)>;

}  // namespace tw::agent
