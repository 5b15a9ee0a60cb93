#include "services/orchestrator/orchestrator_service.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/agent/postgres_session_store.h"
#include "libs/agent/report_render.h"
#include "libs/common/status_macros.h"
#include "libs/llm/image_content.h"
#include "libs/rpc/channel_security.h"
#include "libs/rpc/status_convert.h"
#include "libs/rpc/trace_query_router.h"

namespace tw::services {
namespace {

namespace pb = tracewise::v1;
using agent::AgentEventKind;

constexpr char kReportArtifact[] = "report.md";  // the Markdown report, for GetDiagnosis
constexpr size_t kMaxToolImageBytes = 4 << 20;   // what one gRPC message can carry by default

grpc::Status Error(grpc::StatusCode code, const std::string& message) {
  return grpc::Status(code, message);
}

int64_t UnixNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool Active(const std::string& status) {
  return status == agent::kTurnRunning || status == agent::kTurnWaitingForClient;
}

// The follow-up context a restarted orchestrator can rebuild: each finished turn's question and
// its report rendered as the answer.
std::string AnswerOfStoredTurn(const agent::TurnInfo& turn) {
  const auto json = nlohmann::json::parse(turn.report_json, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return "";
  std::string answer = json.value("overview", "");
  if (json.contains("findings")) {
    for (const auto& f : json["findings"]) {
      absl::StrAppend(&answer, "\n- [", f.value("severity", ""), "] ", f.value("title", ""), " — ",
                      f.value("description", ""));
    }
  }
  return answer;
}

// While it lives, every call this thread makes carries `authorization` — the caller's own token,
// so the services downstream check the caller themselves. Nothing with auth off ("").
class AsCaller {
 public:
  explicit AsCaller(const std::string& authorization) {
    if (!authorization.empty()) scope_.emplace(authorization);
  }

 private:
  std::optional<rpc::ScopedCallAuthorization> scope_;
};

agent::TurnSpec SpecOf(const std::string& question, const pb::AskOptions& options) {
  agent::TurnSpec spec;
  spec.question = question;
  spec.mode = options.mode().empty() ? "auto" : options.mode();
  spec.scene = options.scene();
  if (options.selection().has_time_range()) {
    spec.selection.time_range =
        agent::TimeWindow{options.selection().time_range().start_ns(), options.selection().time_range().end_ns()};
  } else if (options.selection().target_case() == pb::Selection::kSliceId) {
    spec.selection.slice_id = options.selection().slice_id();
  }
  spec.client_tools.assign(options.client_tools().begin(), options.client_tools().end());
  return spec;
}

}  // namespace

absl::StatusOr<std::unique_ptr<OrchestratorService>> OrchestratorService::Create(
    OrchestratorOptions options) {
  if (options.trace_query.empty() || options.skill_engine.empty()) {
    return absl::InvalidArgumentError("the orchestrator needs --trace-query and --skill-engine");
  }
  std::unique_ptr<agent::SessionStore> store;
  if (!options.sessions_url.empty()) {
    ASSIGN_OR_RETURN(store, agent::PostgresSessionStore::Open(options.sessions_url));
  } else {
    ASSIGN_OR_RETURN(store, agent::SqliteSessionStore::Open(options.sessions_db));
  }
  ASSIGN_OR_RETURN(auto strategies, strategy::StrategyLibrary::Load(options.strategies_dir));
  std::unique_ptr<OrchestratorService> service(
      new OrchestratorService(std::move(options), std::move(store), std::move(strategies)));
  backends::BackendFactoryOptions wiring;
  wiring.services = {service->options_.trace_query, service->options_.skill_engine,
                     service->options_.verifier};
  wiring.make_llm = service->options_.make_llm;
  ASSIGN_OR_RETURN(service->factory_, backends::BackendFactory::Create(std::move(wiring)));
  if (service->store_->shared()) {
    // Other replicas may be running turns right now: only lapsed leases are taken over.
    service->lease_thread_ = std::thread(&OrchestratorService::LeaseLoop, service.get());
  } else {
    service->InterruptLeftoverTurns();
  }
  service->sweeper_ = std::thread([s = service.get()] {
    const int64_t timeout = s->options_.loop.client_tools.timeout_ms;
    const int64_t every = s->options_.sweep_interval_ms > 0
                              ? s->options_.sweep_interval_ms
                              : std::clamp<int64_t>(timeout / 4, 50, 1000);
    std::unique_lock<std::mutex> lock(s->sweep_mu_);
    while (!s->shutting_down_) {
      s->sweep_cv_.wait_for(lock, std::chrono::milliseconds(every));
      if (s->shutting_down_) break;
      lock.unlock();
      s->Sweep();
      lock.lock();
    }
  });
  return service;
}

OrchestratorService::OrchestratorService(OrchestratorOptions options,
                                         std::unique_ptr<agent::SessionStore> store,
                                         strategy::StrategyLibrary strategies)
    : options_(std::move(options)),
      store_(std::move(store)),
      strategies_(std::move(strategies)) {
  if (!options_.skills_dir.empty()) {
    std::vector<skills::Diagnostic> diagnostics;
    skill_library_ = skills::SkillLibrary::LoadDirectory(options_.skills_dir, &diagnostics);
  }
  char host[128] = {0};
  gethostname(host, sizeof host - 1);
  replica_id_ = absl::StrFormat("%s/%d/%08x", host, static_cast<int>(getpid()),
                                static_cast<uint32_t>(std::random_device{}()));
  agent::TurnRunnerOptions runner;
  runner.loop = options_.loop;
  runner_ = std::make_unique<agent::TurnRunner>(
      strategies_, options_.skills_dir.empty() ? nullptr : &skill_library_, std::move(runner));
}

OrchestratorService::~OrchestratorService() {
  {
    std::lock_guard<std::mutex> lock(sweep_mu_);
    shutting_down_ = true;
  }
  sweep_cv_.notify_all();
  if (sweeper_.joinable()) sweeper_.join();
  {
    std::lock_guard<std::mutex> lock(lease_mu_);
  }
  lease_cv_.notify_all();
  if (lease_thread_.joinable()) lease_thread_.join();
  std::map<std::string, std::shared_ptr<Live>> live;
  {
    std::lock_guard<std::mutex> lock(mu_);
    live = live_;
  }
  for (auto& [id, l] : live) {
    l->cancel = true;
    l->cv.notify_all();
  }
  for (auto& [id, l] : live) {
    if (l->worker.joinable()) l->worker.join();
  }
}

void OrchestratorService::InterruptLeftoverTurns() {
  auto sessions = store_->ListSessions(1'000'000);
  if (!sessions.ok()) return;
  for (const agent::SessionInfo& s : *sessions) {
    auto turns = store_->Turns(s.id);
    if (!turns.ok()) continue;
    for (const agent::TurnInfo& t : *turns) {
      // A turn waiting for the client holds no thread: it waits on, for any orchestrator.
      if (t.status != agent::kTurnRunning) continue;
      Interrupt(s.id, t.index, "the orchestrator restarted while this turn was running");
    }
  }
}

void OrchestratorService::Interrupt(const std::string& session, int turn, const std::string& why) {
  auto live = LiveFor(session);
  Append(session, turn, *live, AgentEventKind::kError, {{"code", "ABORTED"}, {"message", why}});
  Append(session, turn, *live, AgentEventKind::kDone, {{"status", "ABORTED"}, {"stop_reason", "interrupted"}});
  (void)store_->FinishTurn(session, turn, "interrupted", "{}");
}

void OrchestratorService::TakeLease(const std::string& session, int turn) {
  if (!store_->shared()) return;
  // From the first moment: a replica that dies before its first renewal leaves a turn the
  // others take over within one lease.
  (void)store_->RenewTurnLease(session, turn, replica_id_, UnixNowNs() + options_.turn_lease_ms * 1'000'000);
}

void OrchestratorService::LeaseLoop() {
  const int64_t lease_ns = options_.turn_lease_ms * 1'000'000;
  const auto period = std::chrono::milliseconds(std::max<int64_t>(options_.turn_lease_ms / 3, 50));
  while (!shutting_down_) {
    // Renew the leases of the turns this replica runs; one it lost (taken over after a stall)
    // is cancelled here, so two replicas never write one turn. A turn waiting for the client
    // runs nowhere and needs no lease.
    std::vector<std::pair<std::string, std::shared_ptr<Live>>> running;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [id, live] : live_) running.emplace_back(id, live);
    }
    for (auto& [id, live] : running) {
      int turn = 0;
      {
        std::lock_guard<std::mutex> lock(live->mu);
        if (!live->running || live->done_appended) continue;
        turn = live->turn;
      }
      absl::Status renewed = store_->RenewTurnLease(id, turn, replica_id_, UnixNowNs() + lease_ns);
      if (!renewed.ok()) {
        std::fprintf(stderr, "tracewise-orchestrator: lease of turn %d of %s: %s\n", turn, id.c_str(),
                     std::string(renewed.message()).c_str());
      }
      if (renewed.code() == absl::StatusCode::kFailedPrecondition) live->cancel = true;
    }
    // Take over turns whose replica stopped renewing (it died): end them as interrupted.
    auto expired = store_->ClaimExpiredTurns(replica_id_, UnixNowNs(), UnixNowNs() + lease_ns);
    if (!expired.ok()) {
      std::fprintf(stderr, "tracewise-orchestrator: expired leases: %s\n",
                   std::string(expired.status().message()).c_str());
    } else {
      for (const auto& [session, turn] : *expired) {
        Interrupt(session, turn, "the orchestrator replica running this turn stopped");
      }
    }
    std::unique_lock<std::mutex> lock(lease_mu_);
    lease_cv_.wait_for(lock, period, [&] { return shutting_down_.load(); });
  }
}

std::shared_ptr<OrchestratorService::Live> OrchestratorService::LiveFor(const std::string& session) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& slot = live_[session];
  if (!slot) {
    slot = std::make_shared<Live>();
    auto info = store_->GetSession(session);
    if (info.ok()) slot->last_seq = info->last_seq;
  }
  return slot;
}

int64_t OrchestratorService::Append(const std::string& session, int turn, Live& live,
                                    AgentEventKind kind, const nlohmann::json& payload) {
  auto seq = store_->AppendEvent(session, turn, agent::AgentEventKindName(kind),
                                  payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (!seq.ok()) return -1;  // the session was deleted under the turn
  {
    std::lock_guard<std::mutex> lock(live.mu);
    live.last_seq = std::max(live.last_seq, *seq);
    if (kind == AgentEventKind::kDone) live.done_appended = true;
  }
  live.cv.notify_all();
  return *seq;
}

bool OrchestratorService::TurnActive(const std::string& session, int turn) {
  auto turns = store_->Turns(session);
  if (!turns.ok() || turns->empty()) return false;
  if (turn <= 0) return Active(turns->back().status);
  for (const agent::TurnInfo& t : *turns) {
    if (t.index == turn) return Active(t.status);
  }
  return false;
}

absl::StatusOr<agent::SessionInfo> OrchestratorService::VisibleSession(const auth::Identity& caller,
                                                                      const std::string& id) {
  auto info = store_->GetSession(id);
  if (!info.ok()) return info.status();
  // The store's own words for an unknown id: nothing tells the two cases apart.
  if (!caller.SeesTenant(info->tenant)) return absl::NotFoundError(absl::StrCat("unknown session '", id, "'"));
  return info;
}

void OrchestratorService::Audit(const auth::Identity& who, const std::string& action,
                                const std::string& object, const absl::Status& outcome,
                                const std::string& detail) {
  options_.audit->Record(who, action, object,
                         outcome.ok() ? "ok" : absl::StatusCodeToString(outcome.code()), detail);
}

// ---- sessions ----

grpc::Status OrchestratorService::CreateSession(grpc::ServerContext* context,
                                                const pb::CreateSessionRequest* request,
                                                pb::Session* response) {
  auto who = options_.auth->Check(context, auth::Permission::kAsk);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  AsCaller as_caller(rpc::ServerAuth::CallerAuthorization(context));
  if (request->trace_id().empty()) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "trace_id is required");
  }
  // As the caller: another tenant's trace is NOT_FOUND at trace-query.
  if (absl::Status s = factory_->CheckTrace(request->trace_id()); !s.ok()) return rpc::ToGrpc(s);
  auto info = store_->CreateSession(request->trace_id(), request->title(), who->tenant, who->subject);
  if (!info.ok()) return rpc::ToGrpc(info.status());
  return rpc::ToGrpc(FillSession(*info, response));
}

absl::Status OrchestratorService::FillSession(const agent::SessionInfo& info, pb::Session* out) {
  out->set_id(info.id);
  out->set_trace_id(info.trace_id);
  out->set_title(info.title);
  out->set_created_unix_ns(info.created_ns);
  out->set_updated_unix_ns(info.updated_ns);
  out->set_last_seq(info.last_seq);
  out->set_input_tokens(info.input_tokens);
  out->set_output_tokens(info.output_tokens);
  out->set_cached_tokens(info.cached_tokens);
  out->set_cost_micro_usd(info.cost_micro_usd);
  ASSIGN_OR_RETURN(auto turns, store_->Turns(info.id));
  for (const agent::TurnInfo& t : turns) {
    pb::Turn* turn = out->add_turns();
    turn->set_index(t.index);
    turn->set_question(t.question);
    turn->set_mode(t.mode);
    turn->set_scene(t.scene);
    turn->set_status(t.status);
    turn->set_started_unix_ns(t.started_ns);
    turn->set_finished_unix_ns(t.finished_ns);
    turn->set_report_json(t.report_json);
    turn->set_reference_trace_id(t.reference_trace_id);
    if (t.status == agent::kTurnWaitingForClient) {
      auto waiting = store_->PeekContinuation(info.id);
      if (waiting.ok() && waiting->turn == t.index) {
        for (const agent::ClientToolSlot& slot : waiting->tools) {
          if (slot.state != agent::ClientToolState::kPending) continue;
          pb::ClientToolRequest* r = turn->add_pending_client_tools();
          r->set_request_id(slot.request.request_id);
          r->set_tool(slot.request.tool);
          r->set_arguments_json(slot.request.arguments);
          r->set_deadline_unix_ns(slot.request.deadline_ns);
        }
      }
    }
  }
  // The store's status is final before `done` is appended: a client that saw `done` never reads
  // busy; a turn running or waiting on any orchestrator is busy.
  out->set_busy(!turns.empty() && Active(turns.back().status));
  return absl::OkStatus();
}

grpc::Status OrchestratorService::GetSession(grpc::ServerContext* context, const pb::GetSessionRequest* request,
                                             pb::Session* response) {
  auto who = options_.auth->Check(context, auth::Permission::kRead);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  auto info = VisibleSession(*who, request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  return rpc::ToGrpc(FillSession(*info, response));
}

grpc::Status OrchestratorService::ListSessions(grpc::ServerContext* context,
                                               const pb::ListSessionsRequest* request,
                                               pb::ListSessionsResponse* response) {
  auto who = options_.auth->Check(context, auth::Permission::kRead);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  if (request->limit() < 0) return Error(grpc::StatusCode::INVALID_ARGUMENT, "limit must be >= 0");
  // The caller's tenant; the sessions it created unless it may list the whole tenant (admin).
  agent::SessionFilter filter;
  if (!who->anonymous()) {
    filter.tenant = who->tenant;
    if (!who->Allows(auth::Permission::kListTenant)) filter.owner = who->subject;
  }
  auto sessions = store_->ListSessions(request->limit() > 0 ? request->limit() : 100, filter);
  if (!sessions.ok()) return rpc::ToGrpc(sessions.status());
  for (const auto& s : *sessions) {
    if (absl::Status st = FillSession(s, response->add_sessions()); !st.ok()) return rpc::ToGrpc(st);
  }
  return grpc::Status::OK;
}

grpc::Status OrchestratorService::DeleteSession(grpc::ServerContext* context,
                                                const pb::DeleteSessionRequest* request,
                                                pb::DeleteSessionResponse*) {
  auto who = options_.auth->Authenticate(context);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  const std::string object = "session/" + request->session_id();
  // Existence is checked before the role: a viewer learns nothing of another tenant's ids.
  auto info = VisibleSession(*who, request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  if (absl::Status allowed = who->Require(auth::Permission::kDelete); !allowed.ok()) {
    Audit(*who, "delete", object, allowed);
    return rpc::ToGrpc(allowed);
  }
  std::shared_ptr<Live> live;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_.find(request->session_id());
    if (it != live_.end()) {
      live = it->second;
      live_.erase(it);
    }
  }
  if (live) {  // stop its turn first, so nothing writes to a deleted session
    live->cancel = true;
    live->cv.notify_all();
    if (live->worker.joinable()) live->worker.join();
  }
  // A waiting turn's continuation and requests go with the session.
  const absl::Status deleted = store_->DeleteSession(request->session_id());
  Audit(*who, "delete", object, deleted);
  return rpc::ToGrpc(deleted);
}

grpc::Status OrchestratorService::CancelTurn(grpc::ServerContext* context, const pb::CancelTurnRequest* request,
                                             pb::CancelTurnResponse* response) {
  auto who = options_.auth->Check(context, auth::Permission::kAsk);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  auto info = VisibleSession(*who, request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  auto live = LiveFor(info->id);
  bool flagged = false;  // a turn running here will stop (and not pause) at its next step
  {
    std::lock_guard<std::mutex> lock(live->mu);
    if (live->running && !live->done_appended) {
      live->cancel = true;
      flagged = true;
      response->set_turn(live->turn);
    }
  }
  // A turn waiting for the client: claim its continuation and end it as cancelled.
  auto waiting = store_->PeekContinuation(info->id);
  if (waiting.ok() && (TryResume(info->id, waiting->turn, /*cancel=*/true,
                                 options_.auth->enabled() ? rpc::ServerAuth::CallerAuthorization(context) : "") ||
                       flagged)) {
    response->set_turn(waiting->turn);
    return grpc::Status::OK;
  }
  if (flagged) return grpc::Status::OK;
  if (TurnActive(info->id, 0)) {
    return Error(grpc::StatusCode::FAILED_PRECONDITION,
                 "the session's turn runs on another orchestrator; cancel it there");
  }
  return Error(grpc::StatusCode::FAILED_PRECONDITION, "no turn is running in this session");
}

// ---- turns ----

absl::StatusOr<int> OrchestratorService::StartTurn(agent::SessionInfo session, const pb::AskRequest& ask,
                                                   const auth::Identity& caller,
                                                   const std::string& authorization) {
  if (ask.question().empty()) return absl::InvalidArgumentError("question is empty");
  const pb::AskOptions& options = ask.options();
  agent::TurnSpec spec = SpecOf(ask.question(), options);
  RETURN_IF_ERROR(runner_->Validate(spec));
  if (shutting_down_) return absl::UnavailableError("the orchestrator is shutting down");
  // Another trace for this session: checked before anything changes.
  const bool switching = !ask.trace_id().empty() && ask.trace_id() != session.trace_id;
  if (switching) {
    if (absl::Status s = factory_->CheckTrace(ask.trace_id()); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("trace ", ask.trace_id(), ": ", s.message()));
    }
  }
  const std::string& trace = switching ? ask.trace_id() : session.trace_id;
  // The reference of a comparison must be a loaded trace other than the session's own; checked
  // before the turn exists, so a bad id leaves the session untouched.
  const std::string& reference = options.reference_trace_id();
  if (!reference.empty()) {
    if (reference == trace) {
      return absl::InvalidArgumentError(absl::StrCat(
          "reference_trace_id ", reference, " is the session's own trace; compare with another trace"));
    }
    if (absl::Status s = factory_->CheckTrace(reference); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("reference trace ", reference, ": ", s.message()));
    }
  }
  auto live = LiveFor(session.id);
  std::unique_lock<std::mutex> lock(live->mu);
  ASSIGN_OR_RETURN(auto turns, store_->Turns(session.id));
  if (!turns.empty() && turns.back().status == agent::kTurnWaitingForClient) {
    return absl::FailedPreconditionError(absl::StrCat(
        "turn ", turns.back().index,
        " waits for the client's tool results; answer them with SubmitToolResult or cancel the turn"));
  }
  // A client that saw the previous turn's `done` may ask again before that turn's thread has
  // quite finished: wait for it rather than refuse.
  if (live->running && live->done_appended) {
    live->cv.wait_for(lock, std::chrono::seconds(10), [&] { return !live->running; });
    ASSIGN_OR_RETURN(turns, store_->Turns(session.id));
  }
  if (live->running) {
    return absl::FailedPreconditionError(
        absl::StrCat("turn ", live->turn, " is still running in this session; cancel it or wait"));
  }
  if (!turns.empty() && Active(turns.back().status)) {
    return absl::FailedPreconditionError(
        turns.back().status == agent::kTurnWaitingForClient
            ? absl::StrCat("turn ", turns.back().index,
                           " waits for the client's tool results; answer them with SubmitToolResult "
                           "or cancel the turn")
            : absl::StrCat("turn ", turns.back().index, " is still running in this session; cancel it or wait"));
  }
  if (live->worker.joinable()) live->worker.join();  // the previous segment has finished
  // The tenant's quotas, last, so a refused turn changed nothing: today's LLM spend, and a slot
  // among its concurrent turns held until the turn's thread ends.
  auth::TenantQuotas::TurnLease slot;
  if (!caller.anonymous()) {
    RETURN_IF_ERROR(options_.quotas->CheckSpend(caller.tenant));
    ASSIGN_OR_RETURN(slot, options_.quotas->AcquireTurn(caller.tenant));
  }
  if (switching) {
    RETURN_IF_ERROR(store_->SetSessionTrace(session.id, trace));
    // Nothing gathered on the previous trace stays: the agent's state and its context probes.
    if (live->agent) live->agent->ResetForTrace(trace);
    factory_->Forget(session.trace_id);
    session.trace_id = trace;
  }
  ASSIGN_OR_RETURN(const int turn, store_->StartTurn(session.id, ask.question(), spec.mode,
                                                     options.scene(), reference));
  TakeLease(session.id, turn);
  live->running = true;
  live->done_appended = false;
  live->turn = turn;
  live->cancel = false;
  live->authorization = authorization;
  TurnJob job{session, turn, reference, std::move(spec), std::nullopt, authorization, caller.tenant,
              std::move(slot)};
  live->worker = std::thread(&OrchestratorService::RunJob, this, std::move(job), live);
  return turn;
}

bool OrchestratorService::TryResume(const std::string& session, int turn, bool cancel,
                                    const std::string& authorization) {
  if (shutting_down_) return false;
  auto info = store_->GetSession(session);
  if (!info.ok()) return false;
  auto live = LiveFor(session);
  std::unique_lock<std::mutex> lock(live->mu);
  // Called when the store holds a continuation: a thread still running here is the one that just
  // paused this turn, about to end.
  live->cv.wait_for(lock, std::chrono::seconds(10), [&] { return !live->running; });
  if (live->running) return false;
  auto claimed = store_->ClaimContinuation(session, turn, cancel);
  if (!claimed.ok()) return false;  // another caller has it, or it still waits
  TakeLease(session, turn);
  std::string reference;
  if (auto turns = store_->Turns(session); turns.ok()) {
    for (const agent::TurnInfo& t : *turns) {
      if (t.index == turn) reference = t.reference_trace_id;
    }
  }
  if (live->worker.joinable()) live->worker.join();
  live->running = true;
  live->done_appended = false;
  live->turn = turn;
  live->cancel = cancel;
  if (!authorization.empty()) live->authorization = authorization;
  TurnJob job{*info, turn, reference, {}, std::move(*claimed), live->authorization, info->tenant, {}};
  live->worker = std::thread(&OrchestratorService::RunJob, this, std::move(job), live);
  return true;
}

void OrchestratorService::SyncAgent(Live& live, const agent::SessionInfo& session, int turn) {
  std::lock_guard<std::mutex> lock(live.mu);
  if (live.agent && live.synced_turn == turn - 1) return;
  // The previous turn ended elsewhere (another process, or before a restart): rebuild what the
  // store keeps — the notes and the conversation.
  live.agent = std::make_unique<agent::AgentSession>();
  live.agent->trace = session.trace_id;
  if (auto notes = store_->Notes(session.id); notes.ok()) live.agent->notes = *notes;
  live.history.clear();
  if (auto turns = store_->Turns(session.id); turns.ok()) {
    for (const agent::TurnInfo& t : *turns) {
      if (t.index >= turn || t.status != agent::kTurnDone) continue;
      live.history.push_back({llm::Role::kUser, t.question});
      live.history.push_back({llm::Role::kAssistant, AnswerOfStoredTurn(t)});
    }
  }
  live.synced_turn = turn - 1;
}

void OrchestratorService::RunJob(TurnJob job, std::shared_ptr<Live> live) {
  // The whole segment runs as the caller who asked: every skill, query and verification.
  AsCaller as_caller(job.authorization);
  const std::string sid = job.session.id;
  const int turn = job.turn;
  // `done` is held back until the turn is persisted, so a client that sees it can read the
  // finished turn (GetSession, GetDiagnosis) and ask again at once.
  nlohmann::json done = {{"status", "OK"}};
  auto emit = [&](const agent::AgentEvent& e) {
    if (e.kind == AgentEventKind::kDone) {
      done = e.data;
      return;
    }
    Append(sid, turn, *live, e.kind, e.data);
  };
  auto cancelled = [&] { return live->cancel.load(); };
  auto pause = [&](const std::string& continuation, const std::vector<agent::ClientToolRequest>& requests) {
    return store_->SaveContinuation(sid, turn, continuation, requests);
  };
  SyncAgent(*live, job.session, turn);

  backends::BackendFactory::TurnWiring wiring;
  wiring.reference_id = job.reference_id;
  wiring.cancelled = &live->cancel;
  wiring.probe_context = !job.resumed.has_value();  // a continuation carries its context
  auto backends = factory_->ForTurn(job.session.trace_id, wiring);
  agent::TurnResult result;
  const size_t notes_before = live->agent->notes.size();
  if (!backends.ok()) {
    result.status = agent::kTurnError;
    Append(sid, turn, *live, AgentEventKind::kError,
           {{"code", absl::StatusCodeToString(backends.status().code())},
            {"message", std::string(backends.status().message())}});
    done = {{"status", absl::StatusCodeToString(backends.status().code())}, {"stop_reason", "error"}};
  } else if (job.resumed) {
    result = runner_->Resume(job.resumed->state, job.resumed->tools, *backends, *live->agent, emit,
                             cancelled, pause);
  } else {
    job.spec.history = live->history;
    result = runner_->Run(job.spec, *backends, *live->agent, emit, cancelled, pause);
  }
  // Cancelled while it paused: take the continuation back at once and end the turn here.
  while (result.status == agent::kTurnWaitingForClient && live->cancel) {
    auto claimed = store_->ClaimContinuation(sid, turn, /*even_if_pending=*/true);
    if (!claimed.ok()) break;  // CancelTurn's own claim has it
    TakeLease(sid, turn);
    result = runner_->Resume(claimed->state, claimed->tools, *backends, *live->agent, emit, cancelled, pause);
  }

  // Notes the model wrote are kept as it goes (a paused turn may resume elsewhere).
  for (size_t i = notes_before; i < live->agent->notes.size(); ++i) {
    (void)store_->AddNote(sid, live->agent->notes[i]);
  }
  if (result.status == agent::kTurnWaitingForClient) {
    // Paused: the continuation is in the store and the requests went out. No thread waits; the
    // turn carries on wherever the answers arrive.
    {
      std::lock_guard<std::mutex> lock(live->mu);
      live->running = false;
    }
    live->cv.notify_all();
    return;
  }
  for (const llm::Message& m : result.exchange) live->history.push_back(m);
  if (!result.offline) {
    for (const auto& artifact : result.report.artifacts) {
      (void)store_->SaveArtifact(sid, artifact->artifact_id, agent::ArtifactJson(*artifact).dump(
                                    -1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
  }
  (void)store_->SaveArtifact(sid, kReportArtifact, result.answer);
  agent::TokenUsage tokens;
  tokens.input_tokens = result.usage.input_tokens;
  tokens.output_tokens = result.usage.output_tokens;
  tokens.cached_tokens = result.usage.cached_input_tokens;
  tokens.cost_micro_usd = options_.micro_usd_of ? options_.micro_usd_of(result.usage) : 0;
  (void)store_->AddUsage(sid, tokens);
  if (!job.tenant.empty() && tokens.cost_micro_usd > 0) {
    options_.quotas->AddSpend(job.tenant, tokens.cost_micro_usd);
  }
  (void)store_->FinishTurn(sid, turn, result.status, agent::RenderJson(result.report));
  {
    std::lock_guard<std::mutex> lock(live->mu);
    live->synced_turn = turn;
  }
  Append(sid, turn, *live, AgentEventKind::kDone, done);
  {
    std::lock_guard<std::mutex> lock(live->mu);
    live->running = false;
  }
  live->cv.notify_all();
}

void OrchestratorService::Sweep() {
  (void)store_->ExpireClientTools(UnixNowNs());
  auto ready = store_->ReadyContinuations(32);
  if (!ready.ok()) return;
  for (const agent::ContinuationKey& key : *ready) TryResume(key.session_id, key.turn, false);
}

grpc::Status OrchestratorService::Follow(grpc::ServerContext* context, const std::string& session,
                                         int64_t from_seq, int turn,
                                         grpc::ServerWriter<pb::AnalysisEvent>* writer) {
  auto live = LiveFor(session);
  int64_t seq = from_seq;
  int idle_checks = 0;  // quiet polls with no turn active anywhere
  while (true) {
    if (context->IsCancelled()) return Error(grpc::StatusCode::CANCELLED, "the client went away");
    auto events = store_->EventsAfter(session, seq, 256);
    if (!events.ok()) return rpc::ToGrpc(events.status());
    for (const agent::StoredEvent& e : *events) {
      pb::AnalysisEvent out;
      out.set_session_id(session);
      out.set_seq(e.seq);
      out.set_turn(e.turn);
      out.set_kind(e.kind);
      out.set_payload_json(e.payload);
      out.set_unix_ns(e.ts_ns);
      if (!writer->Write(out)) return Error(grpc::StatusCode::CANCELLED, "the client went away");
      seq = e.seq;
      if (turn > 0 && e.turn == turn && e.kind == "done") return grpc::Status::OK;
    }
    if (!events->empty()) {
      idle_checks = 0;
      continue;
    }
    {
      std::unique_lock<std::mutex> lock(live->mu);
      if (live->last_seq > seq) continue;
      if (shutting_down_) return Error(grpc::StatusCode::UNAVAILABLE, "the orchestrator is shutting down");
      if (live->running) {
        live->cv.wait_for(lock, std::chrono::milliseconds(200));
        continue;
      }
    }
    // Nothing runs here: the turn may wait for the client or run on another orchestrator (its
    // events then arrive through the shared store). A turn that ended has appended `done` right
    // after its final status; one more quiet poll makes sure it was read.
    if (TurnActive(session, turn)) {
      idle_checks = 0;
    } else if (++idle_checks >= 2) {
      return grpc::Status::OK;
    }
    if (store_->shared()) {
      // Woken by the writing replica's NOTIFY, whichever it is.
      auto waited = store_->WaitForEvents(session, seq, idle_checks > 0 ? 50 : 500);
      if (!waited.ok()) return rpc::ToGrpc(waited.status());
      continue;
    }
    std::unique_lock<std::mutex> lock(live->mu);
    live->cv.wait_for(lock, std::chrono::milliseconds(idle_checks > 0 ? 50 : 200));
  }
}

grpc::Status OrchestratorService::Ask(grpc::ServerContext* context, const pb::AskRequest* request,
                                      grpc::ServerWriter<pb::AnalysisEvent>* writer) {
  auto who = options_.auth->Check(context, auth::Permission::kAsk);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  const std::string authorization = rpc::ServerAuth::CallerAuthorization(context);
  AsCaller as_caller(authorization);
  auto info = VisibleSession(*who, request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  // The store's last sequence: another replica may have appended since this one looked.
  const int64_t from_seq = std::max(info->last_seq, LiveFor(info->id)->last_seq);
  auto turn = StartTurn(*info, *request, *who, options_.auth->enabled() ? authorization : "");
  Audit(*who, "ask", "session/" + info->id, turn.status(),
        absl::StrCat("question_bytes=", request->question().size()));
  if (!turn.ok()) return rpc::ToGrpcWithRetry(context, turn.status());
  return Follow(context, info->id, from_seq, *turn, writer);
}

grpc::Status OrchestratorService::Resume(grpc::ServerContext* context, const pb::ResumeRequest* request,
                                         grpc::ServerWriter<pb::AnalysisEvent>* writer) {
  auto who = options_.auth->Check(context, auth::Permission::kRead);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  auto info = VisibleSession(*who, request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  if (request->from_seq() < 0) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "from_seq must be >= 0");
  }
  return Follow(context, info->id, request->from_seq(), 0, writer);
}

// ---- client-side tools ----

grpc::Status OrchestratorService::SubmitToolResult(grpc::ServerContext* context,
                                                   const pb::SubmitToolResultRequest* request,
                                                   pb::SubmitToolResultResponse* response) {
  auto who = options_.auth->Check(context, auth::Permission::kAsk);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  if (request->request_id().empty()) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "request_id is required");
  }
  auto info = VisibleSession(*who, request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  agent::ClientToolAnswer answer;
  switch (request->outcome_case()) {
    case pb::SubmitToolResultRequest::kResultJson: {
      const auto parsed = nlohmann::json::parse(request->result_json(), nullptr, false);
      if (parsed.is_discarded()) {
        return Error(grpc::StatusCode::INVALID_ARGUMENT, "result_json is not valid JSON");
      }
      answer.result_json = request->result_json();
      break;
    }
    case pb::SubmitToolResultRequest::kImage: {
      const pb::ToolImage& image = request->image();
      if (image.data().empty()) return Error(grpc::StatusCode::INVALID_ARGUMENT, "the image is empty");
      if (!llm::IsSupportedImageType(image.mime_type())) {
        return Error(grpc::StatusCode::INVALID_ARGUMENT,
                     absl::StrCat("unsupported image type '", image.mime_type(),
                                  "' (use image/png, image/jpeg, image/webp or image/gif)"));
      }
      if (image.data().size() > kMaxToolImageBytes) {
        return Error(grpc::StatusCode::INVALID_ARGUMENT,
                     absl::StrCat("the image has ", image.data().size(), " bytes; at most ",
                                  kMaxToolImageBytes, " are accepted"));
      }
      answer.image = image.data();
      answer.image_mime = image.mime_type();
      break;
    }
    case pb::SubmitToolResultRequest::kError:
      if (request->error().empty()) {
        return Error(grpc::StatusCode::INVALID_ARGUMENT, "error must say what went wrong");
      }
      answer.error = request->error();
      break;
    case pb::SubmitToolResultRequest::OUTCOME_NOT_SET:
      return Error(grpc::StatusCode::INVALID_ARGUMENT,
                   "give the tool's outcome: result_json, image or error");
  }
  auto receipt = store_->AnswerClientTool(info->id, request->request_id(), answer);
  if (!receipt.ok()) return rpc::ToGrpc(receipt.status());
  response->set_turn(receipt->turn);
  response->set_pending(receipt->pending);
  if (receipt->pending == 0) {
    // The last answer: resume here, unless another orchestrator's sweeper claimed it first (then
    // it runs there); either way the turn goes on.
    TryResume(info->id, receipt->turn, false,
              options_.auth->enabled() ? rpc::ServerAuth::CallerAuthorization(context) : "");
    response->set_resumed(true);
  }
  return grpc::Status::OK;
}

// ---- uploads ----

grpc::Status OrchestratorService::UploadTrace(grpc::ServerContext* context,
                                              grpc::ServerReader<pb::UploadTraceRequest>* reader,
                                              pb::UploadTraceResponse* response) {
  // A proxy: each chunk goes on to trace-query (through the router: into the shared store, then
  // loaded by the trace's owner) as it arrives, so memory stays one chunk deep whatever the
  // trace's size; trace-query checks the size limit, the checksum and the format — and, as the
  // caller (its token goes on), the role, the tenant's storage quota and the upload name.
  auto who = options_.auth->Check(context, auth::Permission::kUpload);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  AsCaller as_caller(rpc::ServerAuth::CallerAuthorization(context));
  pb::UploadTraceRequest message;
  if (!reader->Read(&message) || !message.has_metadata()) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "the first message of an upload must carry its metadata");
  }
  const pb::UploadMetadata metadata = message.metadata();
  auto upload = factory_->router()->BeginUpload(metadata.name(), metadata.size_bytes(), metadata.sha256());
  if (!upload.ok()) return rpc::ToGrpc(upload.status());
  while (reader->Read(&message)) {
    if (!message.has_chunk()) {
      return Error(grpc::StatusCode::INVALID_ARGUMENT, "metadata sent twice in one upload");
    }
    // Destroying the upload unfinished cancels it: trace-query discards the partial file.
    if (absl::Status s = (*upload)->Write(message.chunk()); !s.ok()) return rpc::ToGrpc(s);
  }
  if (context->IsCancelled()) return Error(grpc::StatusCode::CANCELLED, "upload cancelled");
  auto stored = (*upload)->Finish(/*load=*/true);
  if (!stored.ok()) return rpc::ToGrpc(stored.status());
  response->set_trace_id(stored->trace_id);
  response->set_size_bytes(stored->size_bytes);
  response->set_already_stored(stored->already_stored);
  return grpc::Status::OK;
}

// ---- diagnosis jobs ----

grpc::Status OrchestratorService::SubmitDiagnosis(grpc::ServerContext* context,
                                                  const pb::SubmitDiagnosisRequest* request,
                                                  pb::DiagnosisJob* response) {
  auto who = options_.auth->Check(context, auth::Permission::kAsk);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  const std::string authorization = rpc::ServerAuth::CallerAuthorization(context);
  AsCaller as_caller(authorization);
  if (request->trace_id().empty()) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "trace_id is required");
  }
  if (request->question().empty()) return Error(grpc::StatusCode::INVALID_ARGUMENT, "question is empty");
  if (absl::Status s = factory_->CheckTrace(request->trace_id()); !s.ok()) return rpc::ToGrpc(s);
  auto info = store_->CreateSession(request->trace_id(), request->question(), who->tenant, who->subject);
  if (!info.ok()) return rpc::ToGrpc(info.status());
  pb::AskRequest ask;
  ask.set_session_id(info->id);
  ask.set_question(request->question());
  *ask.mutable_options() = request->options();
  auto turn = StartTurn(*info, ask, *who, options_.auth->enabled() ? authorization : "");
  Audit(*who, "ask", "job/" + info->id, turn.status(),
        absl::StrCat("trace=", request->trace_id(), " question_bytes=", request->question().size()));
  if (!turn.ok()) {
    (void)store_->DeleteSession(info->id);
    return rpc::ToGrpcWithRetry(context, turn.status());
  }
  response->set_job_id(info->id);
  response->set_session_id(info->id);
  response->set_status("running");
  return grpc::Status::OK;
}

grpc::Status OrchestratorService::GetDiagnosis(grpc::ServerContext* context,
                                               const pb::GetDiagnosisRequest* request,
                                               pb::DiagnosisJob* response) {
  auto who = options_.auth->Check(context, auth::Permission::kRead);
  if (!who.ok()) return rpc::ToGrpc(who.status());
  if (auto job = VisibleSession(*who, request->job_id()); !job.ok()) return rpc::ToGrpc(job.status());
  auto turns = store_->Turns(request->job_id());
  if (!turns.ok()) return rpc::ToGrpc(turns.status());
  if (turns->empty()) {
    return Error(grpc::StatusCode::NOT_FOUND, "no diagnosis job with id " + request->job_id());
  }
  const agent::TurnInfo& t = turns->front();
  response->set_job_id(request->job_id());
  response->set_session_id(request->job_id());
  response->set_status(t.status);
  if (!Active(t.status)) {
    response->set_report_json(t.report_json);
    auto markdown = store_->LoadArtifact(request->job_id(), kReportArtifact);
    if (markdown.ok()) response->set_report_markdown(*markdown);
    if (t.status != agent::kTurnDone) response->set_error("the diagnosis ended with status " + t.status);
  }
  return grpc::Status::OK;
}

}  // namespace tw::services
