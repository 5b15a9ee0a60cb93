#pragma once
// A client of a Tracewise deployment through ONE address, the orchestrator's (`tracewise analyze
// --orchestrator`, `chat --orchestrator`): the trace goes up through Orchestrator.UploadTrace
// (proxied to trace-query chunk by chunk), a session is opened on it, each question is an Ask
// whose events stream back as the agent's events, client-tool requests are answered with
// SubmitToolResult, and the finished turn's report comes from GetSession.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/agent/agent_events.h"
#include "libs/agent/selection_scope.h"
#include "libs/agent/session_store.h"

namespace tw::rpc {

struct RemoteQuestion {
  std::string question;
  std::string mode = "auto";
  std::string scene;
  std::string reference_trace_id;
  std::vector<std::string> client_tools;
  agent::TurnSelection selection;
  std::string trace_id;  // switch the session to this trace first; empty = keep it
};

struct RemoteTurn {
  int index = 0;
  std::string status;
  std::string report_json;
  std::string trace_id;  // the session's trace
  int64_t input_tokens = 0;   // the session's totals
  int64_t output_tokens = 0;
  int64_t cached_tokens = 0;
};

// A session as the orchestrator keeps it, with its turns (reports left out).
struct RemoteSession {
  agent::SessionInfo info;
  std::vector<agent::TurnInfo> turns;
};

class OrchestratorClient {
 public:
  explicit OrchestratorClient(const std::string& target);
  ~OrchestratorClient();

  // Uploads a local trace file through the orchestrator; returns its trace id.
  absl::StatusOr<std::string> UploadFile(const std::string& path);
  // Opens a session on an uploaded trace; returns its id.
  absl::StatusOr<std::string> CreateSession(const std::string& trace_id, const std::string& title);
  // Runs a turn and hands each event to `on_event` as it arrives, until the turn's done event.
  // Error statuses are the orchestrator's (e.g. NOT_FOUND for an unknown reference trace).
  absl::Status Ask(const std::string& session, const RemoteQuestion& question,
                   const std::function<void(const agent::AgentEvent&)>& on_event);
  absl::Status SubmitToolResult(const std::string& session, const std::string& request_id,
                                const agent::ClientToolAnswer& answer);
  // The session's last turn, with its report (Turn.report_json).
  absl::StatusOr<RemoteTurn> LastTurn(const std::string& session);
  // Sessions newest first (at most `limit`), each with its turns.
  absl::StatusOr<std::vector<RemoteSession>> ListSessions(int limit);
  // Cancels the session's running turn; FAILED_PRECONDITION when none runs.
  absl::Status CancelTurn(const std::string& session);

 private:
  struct Stub;
  std::unique_ptr<Stub> stub_;
};

// An event kind's name back to the enum (unknown names: nullopt).
std::optional<agent::AgentEventKind> AgentEventKindFromName(const std::string& name);

}  // namespace tw::rpc
