#pragma once
// TurnHost for the embedded and the services wiring: a turn runs on the one turn runner
// (libs/agent/turn_runner) over backends made from the server's TraceWorkspace — the trace the
// workspace already holds (embedded: its TraceManager, so a trace is loaded once, under the
// memory budget; services: trace-query and skill-engine) — plus the verifier (in process or the
// verifier service) and the LLM provider when one is configured (else the offline analyst).
// Sessions, their turns and reports are kept in a session store. A session's agent state and
// conversation stay in memory while the server runs.

#include <map>
#include <memory>
#include <mutex>

#include "libs/agent/turn_runner.h"
#include "libs/llm/llm_provider.h"
#include "tools/tracewise/mcp/trace_workspace.h"
#include "tools/tracewise/mcp/turn_host.h"

namespace tw::mcp {

struct LocalTurnHostOptions {
  std::function<std::shared_ptr<llm::LlmProvider>()> make_llm;  // empty: the offline analyst
  std::string verifier;  // the verifier service's HOST:PORT; empty: verify in process
  std::string describe;  // for Describe()
};

class LocalTurnHost : public TurnHost {
 public:
  // None of the pointers is owned; all must outlive the host.
  LocalTurnHost(TraceWorkspace* workspace, agent::TurnRunner* runner, agent::SessionStore* store,
                LocalTurnHostOptions options);

  absl::StatusOr<TurnOutcome> Run(const TurnRequest& request, const agent::AgentEventSink& emit,
                                  const std::atomic<bool>* cancelled) override;
  absl::StatusOr<std::vector<SessionSummary>> Sessions(const std::string& trace_id, int limit) override;
  std::string Describe() const override { return options_.describe; }

 private:
  // The in-memory side of a session.
  struct Live {
    std::mutex mu;  // held while a turn runs: one turn per session at a time
    agent::AgentSession agent;
    std::vector<llm::Message> history;
  };
  std::shared_ptr<Live> LiveFor(const std::string& session);
  agent::TurnBackends BackendsFor(const std::string& trace_id, const std::atomic<bool>* cancelled);

  TraceWorkspace* workspace_;
  agent::TurnRunner* runner_;
  agent::SessionStore* store_;
  LocalTurnHostOptions options_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Live>> live_;
};

}  // namespace tw::mcp
