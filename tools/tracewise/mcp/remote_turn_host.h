#pragma once
// TurnHost on a deployment (`--orchestrator HOST:PORT`): the orchestrator runs each turn on the
// same turn runner and keeps the sessions; events stream back as progress, a cancelled call
// becomes Orchestrator.CancelTurn, and the finished turn's report is read from the session.
// Trace ids are trace-query's (the services workspace uploads there too), so a trace loaded by
// load_trace is the one the orchestrator's session opens.

#include <memory>
#include <string>

#include "libs/rpc/orchestrator_client.h"
#include "tools/tracewise/mcp/turn_host.h"

namespace tw::mcp {

class RemoteTurnHost : public TurnHost {
 public:
  explicit RemoteTurnHost(std::string orchestrator);

  absl::StatusOr<TurnOutcome> Run(const TurnRequest& request, const agent::AgentEventSink& emit,
                                  const std::atomic<bool>* cancelled) override;
  absl::StatusOr<std::vector<SessionSummary>> Sessions(const std::string& trace_id, int limit) override;
  std::string Describe() const override;

 private:
  std::string address_;
  rpc::OrchestratorClient client_;
};

}  // namespace tw::mcp
