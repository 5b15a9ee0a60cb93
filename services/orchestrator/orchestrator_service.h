#pragma once
// tracewise.v1.Orchestrator: sessions over traces held by trace-query, turns run by the one turn
// runner (libs/agent/turn_runner: the LLM agent, or with no model configured the offline
// analyst) over backends from the one factory (libs/backends), every event persisted with a
// per-session sequence number before it is streamed. A turn runs on its own thread: Ask and
// Resume only follow the session's event log, so a client that disconnects loses nothing and a
// restarted orchestrator serves the same sessions (turns it was running end as "interrupted").
// Replicas sharing a PostgreSQL store hold a lease on the turns they run; a replica that dies
// stops renewing it, and another ends its turn as interrupted.
//
// Client-side tools: a turn whose model calls one pauses — its continuation is saved in the
// session store, `client_tool_request` goes out and the thread ends. SubmitToolResult (on any
// orchestrator sharing the store, also one restarted since) settles the request; the last answer
// claims the continuation and resumes the turn on a new thread. A sweeper times out unanswered
// requests (the model is told) and resumes continuations nobody claimed.
//
// Security (issue #16): with an auth config every call must carry a bearer token; a session
// belongs to its creator's tenant (another tenant's session or job is NOT_FOUND, exactly like an
// unknown id) and lists show a non-admin only the sessions it created. A turn runs on its own
// thread as the caller who started it — its skill, query and verifier calls carry that caller's
// token, so trace-query checks tenancy for every one of them. Per-tenant quotas: concurrent
// turns and LLM spend per day (RESOURCE_EXHAUSTED with a retry-after).

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "libs/agent/session_store.h"
#include "libs/auth/audit_log.h"
#include "libs/auth/quotas.h"
#include "libs/agent/turn_runner.h"
#include "libs/backends/backend_factory.h"
#include "libs/rpc/server_auth.h"
#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"
#include "tracewise/v1/orchestrator.grpc.pb.h"

namespace tw::services {

struct OrchestratorOptions {
  std::string sessions_db;   // SQLite file of the session store (one orchestrator)
  // postgres://... : the session store replicas share (PostgreSQL); replaces sessions_db.
  std::string sessions_url;
  // A running turn's lease in a shared store: renewed while the turn runs; once it lapses
  // (the replica died) another replica ends the turn as interrupted.
  int64_t turn_lease_ms = 15'000;
  std::string trace_query;   // trace-query's replicas (libs/rpc/replica_target.h)
  std::string skill_engine;  // HOST:PORT
  std::string verifier;      // HOST:PORT; empty = verify in process
  std::string strategies_dir;
  std::string skills_dir;    // for list_skills descriptions; empty = none
  // A provider per turn (providers need not be thread-safe); empty or returning null = no model
  // configured: the offline analyst answers.
  std::function<std::shared_ptr<llm::LlmProvider>()> make_llm;
  // Limits, request options and costs of the agent loop; loop.client_tools.timeout_ms is how long
  // a client has to answer a client_tool_request (--client-tool-timeout-s, default 120 s).
  agent::AgentLoopOptions loop;
  // Prices usage in micro-USD for the session totals; empty = unknown (0).
  std::function<int64_t(const llm::Usage&)> micro_usd_of;
  // How often overdue client-tool requests are timed out; 0 = a quarter of the timeout, at most 1 s.
  int64_t sweep_interval_ms = 0;
  // Authentication, per-tenant quotas and the audit log (issue #16); off by default.
  std::shared_ptr<rpc::ServerAuth> auth = std::make_shared<rpc::ServerAuth>();
  std::shared_ptr<auth::TenantQuotas> quotas =
      std::make_shared<auth::TenantQuotas>(auth::QuotaSettings{});
  std::shared_ptr<auth::AuditLog> audit = std::make_shared<auth::AuditLog>();
};

class OrchestratorService final : public tracewise::v1::Orchestrator::Service {
 public:
  // Opens the session store and the strategies; marks turns left running by a previous process
  // as interrupted (turns waiting for the client stay waiting); starts the timeout sweeper.
  static absl::StatusOr<std::unique_ptr<OrchestratorService>> Create(OrchestratorOptions options);
  // Cancels running turns and waits for them.
  ~OrchestratorService() override;

  grpc::Status CreateSession(grpc::ServerContext*, const tracewise::v1::CreateSessionRequest*,
                             tracewise::v1::Session*) override;
  grpc::Status Ask(grpc::ServerContext*, const tracewise::v1::AskRequest*,
                   grpc::ServerWriter<tracewise::v1::AnalysisEvent>*) override;
  grpc::Status Resume(grpc::ServerContext*, const tracewise::v1::ResumeRequest*,
                      grpc::ServerWriter<tracewise::v1::AnalysisEvent>*) override;
  grpc::Status GetSession(grpc::ServerContext*, const tracewise::v1::GetSessionRequest*,
                          tracewise::v1::Session*) override;
  grpc::Status ListSessions(grpc::ServerContext*, const tracewise::v1::ListSessionsRequest*,
                            tracewise::v1::ListSessionsResponse*) override;
  grpc::Status CancelTurn(grpc::ServerContext*, const tracewise::v1::CancelTurnRequest*,
                          tracewise::v1::CancelTurnResponse*) override;
  grpc::Status DeleteSession(grpc::ServerContext*, const tracewise::v1::DeleteSessionRequest*,
                             tracewise::v1::DeleteSessionResponse*) override;
  grpc::Status SubmitDiagnosis(grpc::ServerContext*, const tracewise::v1::SubmitDiagnosisRequest*,
                               tracewise::v1::DiagnosisJob*) override;
  grpc::Status GetDiagnosis(grpc::ServerContext*, const tracewise::v1::GetDiagnosisRequest*,
                            tracewise::v1::DiagnosisJob*) override;
  grpc::Status UploadTrace(grpc::ServerContext*,
                           grpc::ServerReader<tracewise::v1::UploadTraceRequest>*,
                           tracewise::v1::UploadTraceResponse*) override;
  grpc::Status SubmitToolResult(grpc::ServerContext*, const tracewise::v1::SubmitToolResultRequest*,
                                tracewise::v1::SubmitToolResultResponse*) override;

 private:
  // The in-memory side of a session on this process: the turn segment running here, the
  // agent's state across turns, and a condition variable followers wait on for new events.
  struct Live {
    std::mutex mu;
    std::condition_variable cv;
    bool running = false;        // a turn (segment) runs on this process
    bool done_appended = false;  // the running turn's `done` event is in the log
    int turn = 0;
    int64_t last_seq = 0;
    std::atomic<bool> cancel{false};
    std::unique_ptr<agent::AgentSession> agent;
    std::vector<llm::Message> history;  // earlier questions and answers
    int synced_turn = 0;  // agent and history are up to date after this turn (ended here)
    std::thread worker;
    // The caller the last turn started here ran as: a paused turn the sweeper resumes (its
    // client never answered) goes on as that caller. Memory only — tokens are never stored.
    std::string authorization;
  };
  // A turn to start or resume on a worker thread.
  struct TurnJob {
    agent::SessionInfo session;
    int turn = 0;
    std::string reference_id;
    agent::TurnSpec spec;                         // a new turn
    std::optional<agent::Continuation> resumed;   // a paused turn, claimed
    std::string authorization;                    // the caller it runs as ("" = the default)
    std::string tenant;                           // whose spend it adds to
    auth::TenantQuotas::TurnLease slot;           // the tenant's concurrent-turn slot
  };

  OrchestratorService(OrchestratorOptions options, std::unique_ptr<agent::SessionStore> store,
                      strategy::StrategyLibrary strategies);
  std::shared_ptr<Live> LiveFor(const std::string& session);
  // The session `id` as `caller` may see it: another tenant's is NOT_FOUND, word for word as an
  // id that never existed.
  absl::StatusOr<agent::SessionInfo> VisibleSession(const auth::Identity& caller, const std::string& id);
  void Audit(const auth::Identity& who, const std::string& action, const std::string& object,
             const absl::Status& outcome, const std::string& detail = "");
  // Validates and starts a turn on its own thread, as `caller` (whose token `authorization`
  // is); returns its index. RESOURCE_EXHAUSTED when the tenant's turn or spend quota is used up.
  absl::StatusOr<int> StartTurn(agent::SessionInfo session, const tracewise::v1::AskRequest& ask,
                                const auth::Identity& caller, const std::string& authorization);
  // Claims a paused turn's continuation and resumes it on a thread here; false when another
  // caller claimed it (or a request is still pending). `cancel`: end it as cancelled.
  // `authorization`: the caller it goes on as; "" = the one that started it here, if known.
  bool TryResume(const std::string& session, int turn, bool cancel, const std::string& authorization = "");
  // Runs (or resumes) a turn segment and records how it ended.
  void RunJob(TurnJob job, std::shared_ptr<Live> live);
  // The agent state and history for `turn`, rebuilt from the store when the previous turn did
  // not end on this process.
  void SyncAgent(Live& live, const agent::SessionInfo& session, int turn);
  int64_t Append(const std::string& session, int turn, Live& live, agent::AgentEventKind kind,
                 const nlohmann::json& payload);
  // Whether `turn` (0: the session's last turn) is running or waiting, on any process.
  bool TurnActive(const std::string& session, int turn);
  // Streams events after `from_seq`; with `turn` > 0 stops after that turn's done event,
  // otherwise when no turn is active and every event has been sent.
  grpc::Status Follow(grpc::ServerContext* context, const std::string& session, int64_t from_seq,
                      int turn, grpc::ServerWriter<tracewise::v1::AnalysisEvent>* writer);
  absl::Status FillSession(const agent::SessionInfo& info, tracewise::v1::Session* out);
  void InterruptLeftoverTurns();
  // Ends a turn whose replica is gone: an ABORTED error, then done (interrupted).
  void Interrupt(const std::string& session, int turn, const std::string& why);
  // Shared store: renews this replica's turns' leases and takes over expired ones, until stop.
  void LeaseLoop();
  // Shared store: this replica's lease on a turn it runs from now.
  void TakeLease(const std::string& session, int turn);
  // Times out overdue client-tool requests and resumes continuations nobody claimed.
  void Sweep();

  OrchestratorOptions options_;
  std::unique_ptr<agent::SessionStore> store_;
  strategy::StrategyLibrary strategies_;
  skills::SkillLibrary skill_library_;
  std::unique_ptr<backends::BackendFactory> factory_;
  std::unique_ptr<agent::TurnRunner> runner_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Live>> live_;
  std::atomic<bool> shutting_down_{false};
  std::mutex sweep_mu_;
  std::condition_variable sweep_cv_;
  std::thread sweeper_;
  std::string replica_id_;  // lease owner: host, process and a random part
  std::mutex lease_mu_;
  std::condition_variable lease_cv_;
  std::thread lease_thread_;
};

}  // namespace tw::services
