#pragma once
// tracewise.v1.Orchestrator: sessions over traces held by trace-query, turns answered by the LLM
// agent (or, with no model configured, the offline analyst), every event persisted with a
// per-session sequence number before it is streamed. A turn runs on its own thread: Ask and
// Resume only follow the session's event log, so a client that disconnects loses nothing and a
// restarted orchestrator serves the same sessions (turns it was running end as "interrupted").

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "libs/agent/agent_loop.h"
#include "libs/agent/session_store.h"
#include "libs/llm/llm_provider.h"
#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"
#include "services/orchestrator/trace_backends.h"
#include "tracewise/v1/orchestrator.grpc.pb.h"

namespace tw::services {

struct OrchestratorOptions {
  std::string sessions_db;   // SQLite file of the session store (one orchestrator)
  // postgres://... : the session store replicas share (PostgreSQL); replaces sessions_db.
  std::string sessions_url;
  // A running turn's lease in a shared store: renewed while the turn runs; once it lapses
  // (the replica died) another replica ends the turn as interrupted.
  int64_t turn_lease_ms = 15'000;
  std::string trace_query;   // HOST:PORT
  std::string skill_engine;  // HOST:PORT
  std::string verifier;      // HOST:PORT; empty = verify in process
  std::string strategies_dir;
  std::string skills_dir;    // for list_skills descriptions; empty = none
  // A provider per turn (providers need not be thread-safe); null or returning null = no model
  // configured: the offline analyst answers.
  std::function<std::unique_ptr<llm::LlmProvider>()> make_llm;
  agent::AgentLoopOptions loop;
  // Prices usage in micro-USD for the session totals; empty = unknown (0).
  std::function<int64_t(const llm::Usage&)> micro_usd_of;
};

class OrchestratorService final : public tracewise::v1::Orchestrator::Service {
 public:
  // Opens the session store and the strategies; marks turns left running by a previous process
  // as interrupted.
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

 private:
  // The in-memory side of a session: its running turn, the agent's state across turns, and a
  // condition variable followers wait on for new events.
  struct Live {
    std::mutex mu;
    std::condition_variable cv;
    bool running = false;
    bool done_appended = false;  // the running turn's `done` event is in the log
    int turn = 0;
    int64_t last_seq = 0;
    std::atomic<bool> cancel{false};
    std::unique_ptr<agent::AgentSession> agent;
    std::vector<llm::Message> history;  // earlier questions and answers
    bool history_loaded = false;
    std::thread worker;
  };

  OrchestratorService(OrchestratorOptions options, std::unique_ptr<agent::SessionStore> store,
                      strategy::StrategyLibrary strategies);
  std::shared_ptr<Live> LiveFor(const std::string& session);
  // Starts a turn on its own thread; returns its index.
  absl::StatusOr<int> StartTurn(const agent::SessionInfo& session, const std::string& question,
                                const tracewise::v1::AskOptions& options);
  void RunTurn(agent::SessionInfo session, int turn, std::string question,
               tracewise::v1::AskOptions options, std::shared_ptr<Live> live);
  // No model and a reference trace: the scene procedure's skills compared on both traces, as
  // difference artifacts and a section appended to the offline answer.
  void AppendOfflineComparison(const std::string& scene, const std::string& trace_id,
                               const std::string& reference_id, agent::SkillRunner& current,
                               agent::SkillRunner& reference, const std::atomic<bool>& cancel,
                               const agent::AgentEventSink& emit,
                               agent::AnalysisReport& report, std::string& answer);
  int64_t Append(const std::string& session, int turn, Live& live, agent::AgentEventKind kind,
                 const nlohmann::json& payload);
  // Streams events after `from_seq`; with `turn` > 0 stops after that turn's done event,
  // otherwise when no turn is running and every event has been sent.
  grpc::Status Follow(grpc::ServerContext* context, const std::string& session, int64_t from_seq,
                      int turn, grpc::ServerWriter<tracewise::v1::AnalysisEvent>* writer);
  absl::Status FillSession(const agent::SessionInfo& info, tracewise::v1::Session* out);
  std::string SelectionText(const tracewise::v1::Selection& selection, skills::SkillQueryRunner& sql);
  void InterruptLeftoverTurns();
  // Ends a turn whose replica is gone: an ABORTED error, then done (interrupted).
  void Interrupt(const std::string& session, int turn, const std::string& why);
  // Shared store: renews this replica's turns' leases and takes over expired ones, until stop.
  void LeaseLoop();

  OrchestratorOptions options_;
  std::unique_ptr<agent::SessionStore> store_;
  strategy::StrategyLibrary strategies_;
  skills::SkillLibrary skill_library_;
  TraceBackendFactory backends_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Live>> live_;
  std::atomic<bool> shutting_down_{false};
  std::string replica_id_;  // lease owner: host, process and a random part
  std::mutex lease_mu_;
  std::condition_variable lease_cv_;
  std::thread lease_thread_;
};

}  // namespace tw::services
