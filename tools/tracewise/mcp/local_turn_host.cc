#include "tools/tracewise/mcp/local_turn_host.h"

#include "absl/strings/str_cat.h"
#include "libs/agent/report_render.h"
#include "libs/agent/schema_provider.h"
#include "libs/rpc/grpc_verifier_client.h"
#include "libs/verify/verifier.h"

namespace tw::mcp {

LocalTurnHost::LocalTurnHost(TraceWorkspace* workspace, agent::TurnRunner* runner, agent::SessionStore* store,
                             LocalTurnHostOptions options)
    : workspace_(workspace), runner_(runner), store_(store), options_(std::move(options)) {}

agent::TurnBackends LocalTurnHost::BackendsFor(const std::string& trace_id, const std::atomic<bool>* cancelled) {
  agent::TurnBackends turn;
  TraceSkills skills = workspace_->SkillsFor(trace_id, cancelled);
  turn.trace.trace_id = trace_id;
  turn.trace.sql = std::move(skills.sql);  // the skill runner holds a reference to it: moved, not copied
  turn.trace.skills = std::move(skills.runner);
  turn.trace.schema = std::make_unique<agent::BackendSchemaProvider>(&workspace_->queries(), trace_id);
  if (options_.verifier.empty()) {
    turn.verifier = std::make_unique<verify::LocalVerifierClient>();
  } else {
    turn.verifier = std::make_unique<rpc::GrpcVerifierClient>(options_.verifier);
  }
  if (options_.make_llm) turn.llm = options_.make_llm();
  return turn;
}

std::shared_ptr<LocalTurnHost::Live> LocalTurnHost::LiveFor(const std::string& session) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& live = live_[session];
  if (!live) live = std::make_shared<Live>();
  return live;
}

absl::StatusOr<TurnOutcome> LocalTurnHost::Run(const TurnRequest& request, const agent::AgentEventSink& emit,
                                               const std::atomic<bool>* cancelled) {
  agent::TurnSpec spec;
  spec.question = request.question;
  spec.mode = request.mode.empty() ? "auto" : request.mode;
  spec.scene = request.scene;
  if (auto s = runner_->Validate(spec); !s.ok()) return s;

  agent::SessionInfo session;
  if (request.session_id.empty()) {
    if (auto info = workspace_->Info(request.trace_id); !info.ok()) return info.status();
    auto created = store_->CreateSession(request.trace_id,
                                         request.question.empty() ? agent::kOverviewQuestion : request.question);
    if (!created.ok()) return created.status();
    session = *created;
  } else {
    auto found = store_->GetSession(request.session_id);
    if (!found.ok()) {
      return absl::NotFoundError(absl::StrCat("unknown session \"", request.session_id,
                                              "\" (analyze opens one; list_sessions lists them)"));
    }
    session = *found;
  }
  std::shared_ptr<Live> live = LiveFor(session.id);
  std::unique_lock<std::mutex> turn_lock(live->mu, std::try_to_lock);
  if (!turn_lock.owns_lock()) {
    return absl::FailedPreconditionError(
        absl::StrCat("session ", session.id, " has a turn running; wait for it or cancel it"));
  }
  auto index = store_->StartTurn(session.id, request.question, spec.mode, spec.scene);
  if (!index.ok()) return index.status();
  spec.history = live->history;

  agent::TurnBackends backends = BackendsFor(session.trace_id, cancelled);
  TurnOutcome outcome;
  outcome.session_id = session.id;
  outcome.trace_id = session.trace_id;
  outcome.turn = *index;
  agent::TurnResult result = runner_->Run(spec, backends, live->agent, emit,
                                          [cancelled] { return cancelled != nullptr && cancelled->load(); });
  result.report.trace = session.trace_id;
  (void)store_->FinishTurn(session.id, *index, result.status, agent::RenderJson(result.report));
  for (const llm::Message& m : result.exchange) live->history.push_back(m);
  outcome.status = result.status;
  outcome.report = std::move(result.report);
  outcome.markdown = std::move(result.answer);
  outcome.deterministic = result.offline;
  if (!result.error.ok()) outcome.error = std::string(result.error.message());
  return outcome;
}

absl::StatusOr<std::vector<SessionSummary>> LocalTurnHost::Sessions(const std::string& trace_id, int limit) {
  auto sessions = store_->ListSessions(trace_id.empty() ? limit : 1000);
  if (!sessions.ok()) return sessions.status();
  std::vector<SessionSummary> out;
  for (const agent::SessionInfo& info : *sessions) {
    if (!trace_id.empty() && info.trace_id != trace_id) continue;
    if (static_cast<int>(out.size()) >= limit) break;
    SessionSummary summary{info, {}};
    if (auto turns = store_->Turns(info.id); turns.ok()) {
      for (agent::TurnInfo t : *turns) {
        t.report_json.clear();
        summary.turns.push_back(std::move(t));
      }
    }
    out.push_back(std::move(summary));
  }
  return out;
}

}  // namespace tw::mcp
