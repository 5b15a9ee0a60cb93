#pragma once
// The LLM agent's turn (DESIGN.md §5): classify the question into a scene, pick the mode,
// then loop — assemble the prompt, call the model, run the tools it asks for, feed the results
// back — until the model concludes. The conclusion goes to the verifier; error-level issues send
// it back with a correction prompt (at most `max_corrections` rounds, a second only when the
// issues changed). Limits on model calls, tokens, cost and wall time end the turn with the best
// partial report — the skills' own findings and what the model wrote — never with nothing.
//
// Client-side tools (client_tools.h): when the model calls one the caller offered, the loop either
// runs it at once through ClientToolHooks::run_now (the CLI), or pauses: it hands its whole state
// to ClientToolHooks::pause (the orchestrator persists it as the turn's continuation), emits one
// `client_tool_request` event per call and returns with `waiting` set, holding no thread.
// Resume() carries on from that state once the client's answers are in (or timed out).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "libs/agent/agent_events.h"
#include "libs/agent/agent_prompt.h"
#include "libs/agent/agent_session.h"
#include "libs/agent/agent_tools.h"
#include "libs/agent/analysis_report.h"
#include "libs/agent/session_store.h"
#include "libs/llm/llm_provider.h"
#include "libs/strategy/strategy_library.h"
#include "libs/verify/verifier.h"

namespace tw::agent {

struct AgentLimits {
  int max_model_calls = 30;          // per turn, corrections included
  int max_corrections = 2;
  int64_t max_total_tokens = 2'000'000;
  double max_cost_usd = 0;           // 0 = no cost limit
  int64_t max_wall_ms = 15 * 60 * 1000;
  int reflection_after = 3;          // data results before the reflection nudge (full mode)
  int failure_watchdog = 3;          // consecutive tool failures before a warning to the model
};

// How the model's client-tool calls reach the client. With neither hook set, a client tool the
// model calls fails with a message saying the client cannot run it.
struct ClientToolHooks {
  // Runs a client tool in this process at once (e.g. `chat` printing an annotation); nullopt
  // when it cannot.
  std::function<std::optional<ClientToolAnswer>(const ClientToolRequest&)> run_now;
  // Persists a pause — the loop's state and the requests — before any client_tool_request
  // event goes out. OK: the turn pauses; an error: the calls fail with it and the turn goes on.
  std::function<absl::Status(const nlohmann::json& state, const std::vector<ClientToolRequest>&)> pause;
  // How long the client has to answer a paused request.
  int64_t timeout_ms = 120'000;
  // New request ids; empty = random "ct-" ids.
  std::function<std::string()> new_request_id;
};

struct AgentLoopOptions {
  AgentLimits limits;
  int prompt_token_budget = 24'000;
  llm::RequestOptions request;
  // Prices the usage so far (from libs/llm's cost table); empty = cost unknown (no cost limit).
  std::function<double(const llm::Usage&)> cost_of;
  ClientToolHooks client_tools;
};

struct TurnRequest {
  std::string question;
  std::string mode = "auto";  // quick | full | auto
  std::string scene;          // forced scene; empty = classify the question
  TurnContext context;        // trace context, selection, prior findings
  // Earlier turns of the session (user questions and final answers) for follow-ups.
  std::vector<llm::Message> history;
  // The client-side tools the caller can run (client_tools.h); only these are offered.
  std::vector<std::string> client_tools;
  // The selection's time window: skills that take start_ts/end_ts get it unless the model says
  // otherwise (ToolContext::scope).
  std::optional<TimeWindow> scope;
};

struct TurnOutcome {
  AnalysisReport report;
  std::string answer;        // the final Markdown (or the best partial text)
  llm::Usage usage;
  int model_calls = 0;
  int corrections = 0;
  bool partial = false;      // ended by a limit, an error or cancellation
  std::string stop_reason;   // "concluded", "limit: ...", "cancelled", "error: ..."
  absl::Status status;       // the provider's error or CANCELLED; OK otherwise
  std::vector<llm::Message> messages;  // this turn's conversation (question first)
  int64_t overhead_ns = 0;   // time spent outside the model calls (tools included)
  int64_t tool_ns = 0;       // of which running tools
  // The turn paused for the client: `client_requests` went out, no report yet and no `done`
  // event; Resume() continues it.
  bool waiting = false;
  std::vector<ClientToolRequest> client_requests;
};

class AgentLoop {
 public:
  // `tools.session` is set by Run; the other ToolContext members must outlive the loop.
  // `verifier` may be null (the report then says it was not verified).
  AgentLoop(llm::LlmProvider& llm, const strategy::StrategyLibrary& strategies, ToolContext tools,
            verify::VerifierClient* verifier, AgentLoopOptions options = {});

  // Runs one turn on `session` (which keeps plan, artifacts and notes across turns).
  // `cancelled` is polled between steps and during streaming; may be empty.
  TurnOutcome Run(const TurnRequest& request, AgentSession& session, const AgentEventSink& emit,
                  const std::function<bool()>& cancelled = {});
  // Carries on a paused turn from the state ClientToolHooks::pause received. `answers` settle its
  // client requests (a request without an answer counts as cancelled); `session` is replaced by
  // the paused turn's. A state that cannot be read ends the turn with INVALID_ARGUMENT.
  TurnOutcome Resume(const nlohmann::json& state, const std::vector<ClientToolSlot>& answers,
                     AgentSession& session, const AgentEventSink& emit,
                     const std::function<bool()>& cancelled = {});

 private:
  struct LoopState;
  // The model ↔ tools loop from `state` until the turn concludes, stops or pauses.
  TurnOutcome Drive(LoopState& state, AgentSession& session, const AgentEventSink& emit,
                    const std::function<bool()>& cancelled);

  llm::LlmProvider& llm_;
  const strategy::StrategyLibrary& strategies_;
  ToolContext tools_;
  verify::VerifierClient* verifier_;
  AgentLoopOptions options_;
};

}  // namespace tw::agent
