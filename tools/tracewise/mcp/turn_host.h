#pragma once
// Where the MCP server's analyze / ask turns run and its sessions live — the server's side of
// DESIGN.md §1's wiring choice, in the same shape as the CLI's:
//   LocalTurnHost  — in this process or through the services: backends over the server's trace
//                    workspace, the one turn runner (libs/agent/turn_runner), sessions in a
//                    SQLite session store under the data directory.
// Sessions are explicit handles (MCP is stateless): analyze opens one, ask continues it (the
// earlier questions and answers are the model's context), list_sessions lists them.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/agent/agent_events.h"
#include "libs/agent/analysis_report.h"
#include "libs/agent/session_store.h"

namespace tw::mcp {

struct TurnRequest {
  std::string session_id;  // empty: a new session on `trace_id`
  std::string trace_id;    // a new session's trace (ask: empty = the session's)
  std::string question;
  std::string mode = "auto";
  std::string scene;
};

struct TurnOutcome {
  std::string session_id;
  std::string trace_id;
  int turn = 0;
  std::string status;  // done | error | cancelled
  agent::AnalysisReport report;
  std::string markdown;  // the answer as a person reads it
  bool deterministic = false;
  std::string error;     // why it did not finish
};

struct SessionSummary {
  agent::SessionInfo info;
  std::vector<agent::TurnInfo> turns;  // report_json left empty
};

class TurnHost {
 public:
  virtual ~TurnHost() = default;
  // Runs one turn, streaming its events to `emit`; `cancelled` (may be null) stops it: the
  // query runners poll it and so does the runner between steps. NOT_FOUND (unknown
  // session or trace), INVALID_ARGUMENT (mode, scene), FAILED_PRECONDITION (the session has a
  // turn running) before a turn starts; afterwards the outcome says how it ended.
  virtual absl::StatusOr<TurnOutcome> Run(const TurnRequest& request, const agent::AgentEventSink& emit,
                                          const std::atomic<bool>* cancelled) = 0;
  // Newest first; `trace_id` filters when not empty.
  virtual absl::StatusOr<std::vector<SessionSummary>> Sessions(const std::string& trace_id, int limit) = 0;
  // Whether turns get an LLM (else the offline analyst answers). One line for logs.
  virtual std::string Describe() const = 0;
};

}  // namespace tw::mcp
