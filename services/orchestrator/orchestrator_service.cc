#include "services/orchestrator/orchestrator_service.h"

#include <unistd.h>

#include <cstdio>
#include <random>

#include <chrono>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/agent/postgres_session_store.h"
#include "libs/agent/offline_analyst.h"
#include "libs/agent/procedure_comparison.h"
#include "libs/agent/report_render.h"
#include "libs/common/status_macros.h"
#include "libs/common/units.h"
#include "libs/rpc/grpc_verifier_client.h"
#include "libs/rpc/status_convert.h"

namespace tw::services {
namespace {

namespace pb = tracewise::v1;
using agent::AgentEventKind;

constexpr char kReportArtifact[] = "report.md";  // the Markdown report, for GetDiagnosis

grpc::Status Error(grpc::StatusCode code, const std::string& message) {
  return grpc::Status(code, message);
}

bool ValidMode(const std::string& mode) {
  return mode.empty() || mode == "auto" || mode == "quick" || mode == "full";
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
  if (service->store_->shared()) {
    // Other replicas may be running turns right now: only lapsed leases are taken over.
    service->lease_thread_ = std::thread(&OrchestratorService::LeaseLoop, service.get());
  } else {
    service->InterruptLeftoverTurns();
  }
  return service;
}

OrchestratorService::OrchestratorService(OrchestratorOptions options,
                                         std::unique_ptr<agent::SessionStore> store,
                                         strategy::StrategyLibrary strategies)
    : options_(std::move(options)),
      store_(std::move(store)),
      strategies_(std::move(strategies)),
      backends_(options_.trace_query, options_.skill_engine) {
  if (!options_.skills_dir.empty()) {
    std::vector<skills::Diagnostic> diagnostics;
    skill_library_ = skills::SkillLibrary::LoadDirectory(options_.skills_dir, &diagnostics);
  }
  char host[128] = {0};
  gethostname(host, sizeof host - 1);
  replica_id_ = absl::StrFormat("%s/%d/%08x", host, static_cast<int>(getpid()),
                                static_cast<uint32_t>(std::random_device{}()));
}

OrchestratorService::~OrchestratorService() {
  shutting_down_ = true;
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

void OrchestratorService::Interrupt(const std::string& session, int turn, const std::string& why) {
  auto live = LiveFor(session);
  Append(session, turn, *live, AgentEventKind::kError, {{"code", "ABORTED"}, {"message", why}});
  Append(session, turn, *live, AgentEventKind::kDone,
         {{"status", "ABORTED"}, {"stop_reason", "interrupted"}});
  (void)store_->FinishTurn(session, turn, "interrupted", "{}");
}

void OrchestratorService::InterruptLeftoverTurns() {
  auto sessions = store_->ListSessions(1'000'000);
  if (!sessions.ok()) return;
  for (const agent::SessionInfo& s : *sessions) {
    auto turns = store_->Turns(s.id);
    if (!turns.ok()) continue;
    for (const agent::TurnInfo& t : *turns) {
      if (t.status != "running") continue;
      Interrupt(s.id, t.index, "the orchestrator restarted while this turn was running");
    }
  }
}

void OrchestratorService::LeaseLoop() {
  const int64_t lease_ns = options_.turn_lease_ms * 1'000'000;
  const auto period = std::chrono::milliseconds(std::max<int64_t>(options_.turn_lease_ms / 3, 50));
  auto now_ns = [] {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  while (!shutting_down_) {
    // Renew the leases of the turns this replica runs; one it lost (taken over after a stall)
    // is cancelled here, so two replicas never write one turn.
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
      absl::Status renewed = store_->RenewTurnLease(id, turn, replica_id_, now_ns() + lease_ns);
      if (!renewed.ok()) {
        std::fprintf(stderr, "tracewise-orchestrator: lease of turn %d of %s: %s\n", turn,
                     id.c_str(), std::string(renewed.message()).c_str());
      }
      if (renewed.code() == absl::StatusCode::kFailedPrecondition) live->cancel = true;
    }
    // Take over turns whose replica stopped renewing (it died): end them as interrupted.
    auto expired = store_->ClaimExpiredTurns(replica_id_, now_ns(), now_ns() + lease_ns);
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

// ---- sessions ----

grpc::Status OrchestratorService::CreateSession(grpc::ServerContext*,
                                                const pb::CreateSessionRequest* request,
                                                pb::Session* response) {
  if (request->trace_id().empty()) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "trace_id is required");
  }
  if (absl::Status s = backends_.CheckTrace(request->trace_id()); !s.ok()) return rpc::ToGrpc(s);
  auto info = store_->CreateSession(request->trace_id(), request->title());
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
  }
  // In a shared store the turn may run on another replica: its status says so.
  if (store_->shared() && !turns.empty() && turns.back().status == "running") {
    out->set_busy(true);
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(info.id);
  if (it != live_.end() && !out->busy()) {
    std::lock_guard<std::mutex> live_lock(it->second->mu);
    // Once `done` is in the log the turn is over for clients (the thread may still be tidying
    // up): a client that saw `done` and asks at once must not see the session busy.
    out->set_busy(it->second->running && !it->second->done_appended);
  }
  return absl::OkStatus();
}

grpc::Status OrchestratorService::GetSession(grpc::ServerContext*, const pb::GetSessionRequest* request,
                                             pb::Session* response) {
  auto info = store_->GetSession(request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  return rpc::ToGrpc(FillSession(*info, response));
}

grpc::Status OrchestratorService::ListSessions(grpc::ServerContext*,
                                               const pb::ListSessionsRequest* request,
                                               pb::ListSessionsResponse* response) {
  if (request->limit() < 0) return Error(grpc::StatusCode::INVALID_ARGUMENT, "limit must be >= 0");
  auto sessions = store_->ListSessions(request->limit() > 0 ? request->limit() : 100);
  if (!sessions.ok()) return rpc::ToGrpc(sessions.status());
  for (const auto& s : *sessions) {
    if (absl::Status st = FillSession(s, response->add_sessions()); !st.ok()) return rpc::ToGrpc(st);
  }
  return grpc::Status::OK;
}

grpc::Status OrchestratorService::DeleteSession(grpc::ServerContext*,
                                                const pb::DeleteSessionRequest* request,
                                                pb::DeleteSessionResponse*) {
  auto info = store_->GetSession(request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
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
    if (live->worker.joinable()) live->worker.join();
  }
  return rpc::ToGrpc(store_->DeleteSession(request->session_id()));
}

grpc::Status OrchestratorService::CancelTurn(grpc::ServerContext*, const pb::CancelTurnRequest* request,
                                             pb::CancelTurnResponse* response) {
  auto info = store_->GetSession(request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  auto live = LiveFor(request->session_id());
  std::lock_guard<std::mutex> lock(live->mu);
  if (!live->running) {
    if (store_->shared() && info->turns > 0) {
      auto turns = store_->Turns(request->session_id());
      if (turns.ok() && !turns->empty() && turns->back().status == "running") {
        return Error(grpc::StatusCode::FAILED_PRECONDITION,
                     absl::StrCat("turn ", turns->back().index,
                                  " runs on another orchestrator replica; cancel it there"));
      }
    }
    return Error(grpc::StatusCode::FAILED_PRECONDITION, "no turn is running in this session");
  }
  live->cancel = true;
  response->set_turn(live->turn);
  return grpc::Status::OK;
}

// ---- turns ----

absl::StatusOr<int> OrchestratorService::StartTurn(const agent::SessionInfo& session,
                                                   const std::string& question,
                                                   const pb::AskOptions& options) {
  if (question.empty()) return absl::InvalidArgumentError("question is empty");
  if (!ValidMode(options.mode())) {
    return absl::InvalidArgumentError(
        absl::StrCat("mode must be quick, full or auto, not '", options.mode(), "'"));
  }
  if (!options.scene().empty() && strategies_.Find(options.scene()) == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("unknown scene '", options.scene(), "'"));
  }
  if (options.selection().has_time_range() &&
      options.selection().time_range().end_ns() <= options.selection().time_range().start_ns()) {
    return absl::InvalidArgumentError("selection time range must have end_ns > start_ns");
  }
  if (shutting_down_) return absl::UnavailableError("the orchestrator is shutting down");
  // The reference of a comparison must be a loaded trace other than the session's own; checked
  // before the turn exists, so a bad id leaves the session untouched.
  const std::string& reference = options.reference_trace_id();
  if (!reference.empty()) {
    if (reference == session.trace_id) {
      return absl::InvalidArgumentError(absl::StrCat(
          "reference_trace_id ", reference, " is the session's own trace; compare with another trace"));
    }
    if (absl::Status s = backends_.CheckTrace(reference); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("reference trace ", reference, ": ", s.message()));
    }
  }
  auto live = LiveFor(session.id);
  std::unique_lock<std::mutex> lock(live->mu);
  // A client that saw the previous turn's `done` may ask again before that turn's thread has
  // quite finished: wait for it rather than refuse.
  if (live->running && live->done_appended) {
    live->cv.wait_for(lock, std::chrono::seconds(10), [&] { return !live->running; });
  }
  if (live->running) {
    return absl::FailedPreconditionError(
        absl::StrCat("turn ", live->turn, " is still running in this session; cancel it or wait"));
  }
  if (live->worker.joinable()) live->worker.join();  // the previous turn has finished
  ASSIGN_OR_RETURN(const int turn,
                   store_->StartTurn(session.id, question, options.mode().empty() ? "auto" : options.mode(),
                                     options.scene(), reference));
  if (store_->shared()) {
    // The lease from the first moment: a replica that dies before its first renewal leaves a
    // turn the others take over within one lease.
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    (void)store_->RenewTurnLease(session.id, turn, replica_id_, now + options_.turn_lease_ms * 1'000'000);
  }
  live->running = true;
  live->done_appended = false;
  live->turn = turn;
  live->cancel = false;
  live->worker = std::thread(&OrchestratorService::RunTurn, this, session, turn, question, options, live);
  return turn;
}

std::string OrchestratorService::SelectionText(const pb::Selection& selection,
                                               skills::SkillQueryRunner& sql) {
  if (selection.has_time_range()) {
    const auto& r = selection.time_range();
    return absl::StrCat("Time range ", r.start_ns(), " .. ", r.end_ns(), " ns (",
                        FormatDurationNs(r.end_ns() - r.start_ns()), ").");
  }
  if (selection.target_case() == pb::Selection::kSliceId) {
    std::string text = absl::StrCat("Slice id ", selection.slice_id());
    auto r = sql.Query("SELECT name, ts, dur FROM slice WHERE id = :id",
                       {{"id", SqlValue::Int(selection.slice_id())}}, 1);
    if (r.ok() && !r->rows.empty()) {
      absl::StrAppend(&text, ": '", r->rows[0][0].string_value, "' at ts ", r->rows[0][1].int_value,
                      " ns, dur ", FormatDurationNs(r->rows[0][2].int_value));
    }
    return text + ".";
  }
  return "";
}

void OrchestratorService::AppendOfflineComparison(
    const std::string& scene, const std::string& trace_id, const std::string& reference_id,
    agent::SkillRunner& current, agent::SkillRunner& reference, const std::atomic<bool>& cancel,
    const agent::AgentEventSink& emit, agent::AnalysisReport& report,
    std::string& answer) {
  const strategy::Strategy* strategy = strategies_.Find(scene);
  if (strategy == nullptr) return;
  agent::ProcedureComparisonOptions o;
  o.context_probes = strategies_.context_probes();
  o.current_label = trace_id;
  o.reference_label = reference_id;
  o.cancelled = [&] { return cancel.load(); };
  o.on_skill = [&](const std::string& skill) {
    emit({AgentEventKind::kProgress, {{"stage", "comparison"},
                                      {"skill", skill},
                                      {"reference_trace_id", reference_id}}});
  };
  agent::ProcedureComparison comparison = agent::CompareProcedure(*strategy, current, reference, o);
  for (const auto& table : comparison.differences) {
    emit({AgentEventKind::kDataEnvelope, agent::ArtifactJson(*table, 50)});
    report.artifacts.push_back(table);
  }
  absl::StrAppend(&answer, "\n", comparison.markdown);
}

void OrchestratorService::RunTurn(agent::SessionInfo session, int turn, std::string question,
                                  pb::AskOptions options, std::shared_ptr<Live> live) {
  const std::string& sid = session.id;
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
  TraceBackends backends = backends_.ForTrace(session.trace_id, &live->cancel);
  // A comparison turn reaches the reference trace through its own runners.
  const std::string& reference_id = options.reference_trace_id();
  std::optional<TraceBackends> reference;
  if (!reference_id.empty()) reference = backends_.ForTrace(reference_id, &live->cancel);
  std::unique_ptr<verify::VerifierClient> verifier;
  if (options_.verifier.empty()) {
    verifier = std::make_unique<verify::LocalVerifierClient>();
  } else {
    verifier = std::make_unique<rpc::GrpcVerifierClient>(options_.verifier);
  }
  std::unique_ptr<llm::LlmProvider> llm = options_.make_llm ? options_.make_llm() : nullptr;

  agent::AnalysisReport report;
  std::string status = "done";
  std::string answer;
  llm::Usage usage;
  if (llm == nullptr) {
    // No model configured: the offline analyst's deterministic diagnosis, streamed as it runs.
    emit({AgentEventKind::kProgress, {{"stage", "offline"},
                                      {"message", "no LLM configured: running the offline analyst"}}});
    agent::OfflineAnalyst analyst(strategies_, *backends.skills, verifier.get());
    agent::OfflineAnalystOptions o;
    o.scene = options.scene();
    o.on_step = [&](const agent::AnalysisStep& step) {
      emit({AgentEventKind::kProgress, {{"stage", "skill"},
                                        {"skill", step.skill},
                                        {"status", step.status},
                                        {"message", step.message},
                                        {"artifacts", step.artifacts}}});
    };
    report = analyst.Analyze(question, session.trace_id, o);
    answer = agent::RenderMarkdown(report);
    if (reference && !live->cancel) {
      AppendOfflineComparison(report.scene, session.trace_id, reference_id, *backends.skills,
                              *reference->skills, live->cancel, emit, report, answer);
    }
    for (const auto& f : report.findings) {
      emit({AgentEventKind::kFinding, {{"id", f.id},
                                       {"severity", agent::FindingSeverityName(f.severity)},
                                       {"title", f.title},
                                       {"description", f.description},
                                       {"evidence", f.evidence}}});
    }
    emit({AgentEventKind::kConclusion, {{"answer", answer},
                                        {"verified", report.verified},
                                        {"deterministic", true}}});
    if (live->cancel) status = "cancelled";
    emit({AgentEventKind::kDone, {{"status", live->cancel ? "CANCELLED" : "OK"},
                                  {"stop_reason", "offline analyst"}}});
  } else {
    {
      std::lock_guard<std::mutex> lock(live->mu);
      if (!live->agent) {
        live->agent = std::make_unique<agent::AgentSession>();
        live->agent->trace = session.trace_id;
        auto notes = store_->Notes(sid);
        if (notes.ok()) live->agent->notes = *notes;
      }
      if (!live->history_loaded) {  // after a restart: rebuild the conversation from the store
        live->history_loaded = true;
        auto turns = store_->Turns(sid);
        if (turns.ok()) {
          for (const agent::TurnInfo& t : *turns) {
            if (t.index >= turn || t.status != "done") continue;
            live->history.push_back({llm::Role::kUser, t.question});
            live->history.push_back({llm::Role::kAssistant, AnswerOfStoredTurn(t)});
          }
        }
      }
    }
    agent::ToolContext tools;
    tools.skills = backends.skills.get();
    tools.skill_library = options_.skills_dir.empty() ? nullptr : &skill_library_;
    tools.sql = backends.sql.get();
    tools.schema = backends.schema.get();
    tools.strategies = &strategies_;
    if (reference) tools.reference = {reference_id, reference->skills.get(), reference->sql.get()};
    agent::AgentLoop loop(*llm, strategies_, tools, verifier.get(), options_.loop);
    agent::TurnRequest request;
    request.question = question;
    request.mode = options.mode().empty() ? "auto" : options.mode();
    request.scene = options.scene();
    request.history = live->history;
    auto context = backends_.ContextFor(session.trace_id);
    if (context.ok()) request.context.trace_context = *context;
    request.context.selection = SelectionText(options.selection(), *backends.sql);
    request.context.reference_trace_id = reference_id;
    const size_t notes_before = live->agent->notes.size();
    agent::TurnOutcome outcome =
        loop.Run(request, *live->agent, emit, [&] { return live->cancel.load(); });
    report = std::move(outcome.report);
    answer = outcome.answer;
    usage = outcome.usage;
    if (outcome.status.code() == absl::StatusCode::kCancelled) {
      status = "cancelled";
    } else if (!outcome.status.ok()) {
      status = "error";
    }
    if (!outcome.answer.empty()) {
      live->history.push_back({llm::Role::kUser, question});
      live->history.push_back({llm::Role::kAssistant, outcome.answer});
    }
    for (size_t i = notes_before; i < live->agent->notes.size(); ++i) {
      (void)store_->AddNote(sid, live->agent->notes[i]);
    }
    for (const auto& artifact : report.artifacts) {
      (void)store_->SaveArtifact(sid, artifact->artifact_id, agent::ArtifactJson(*artifact).dump(
                                    -1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
  }
  (void)store_->SaveArtifact(sid, kReportArtifact, answer);
  agent::TokenUsage tokens;
  tokens.input_tokens = usage.input_tokens;
  tokens.output_tokens = usage.output_tokens;
  tokens.cached_tokens = usage.cached_input_tokens;
  tokens.cost_micro_usd = options_.micro_usd_of ? options_.micro_usd_of(usage) : 0;
  (void)store_->AddUsage(sid, tokens);
  (void)store_->FinishTurn(sid, turn, status, agent::RenderJson(report));
  Append(sid, turn, *live, AgentEventKind::kDone, done);
  {
    std::lock_guard<std::mutex> lock(live->mu);
    live->running = false;
  }
  live->cv.notify_all();
}

grpc::Status OrchestratorService::Follow(grpc::ServerContext* context, const std::string& session,
                                         int64_t from_seq, int turn,
                                         grpc::ServerWriter<pb::AnalysisEvent>* writer) {
  auto live = LiveFor(session);
  int64_t seq = from_seq;
  bool last_was_done = false;  // the last event sent ended its turn
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
      last_was_done = e.kind == "done";
      if (turn > 0 && e.turn == turn && e.kind == "done") return grpc::Status::OK;
    }
    if (!events->empty()) continue;
    std::unique_lock<std::mutex> lock(live->mu);
    if (live->last_seq > seq) continue;
    // Every event of a finished turn has been appended before `running` drops.
    if (!live->running) {
      if (!store_->shared() || last_was_done) return grpc::Status::OK;
      // Another replica may be running a turn of this session: follow it through the store,
      // woken by that replica's appends (or its lease's expiry, which ends the turn).
      lock.unlock();
      auto turns = store_->Turns(session);
      if (!turns.ok()) return rpc::ToGrpc(turns.status());
      if (turns->empty() || turns->back().status != "running") {
        return grpc::Status::OK;
      }
      if (shutting_down_) return Error(grpc::StatusCode::UNAVAILABLE, "the orchestrator is shutting down");
      auto waited = store_->WaitForEvents(session, seq, 500);
      if (!waited.ok()) return rpc::ToGrpc(waited.status());
      continue;
    }
    if (shutting_down_) return Error(grpc::StatusCode::UNAVAILABLE, "the orchestrator is shutting down");
    live->cv.wait_for(lock, std::chrono::milliseconds(200));
  }
}

grpc::Status OrchestratorService::Ask(grpc::ServerContext* context, const pb::AskRequest* request,
                                      grpc::ServerWriter<pb::AnalysisEvent>* writer) {
  auto info = store_->GetSession(request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  // The store's last sequence: another replica may have appended since this one looked.
  const int64_t from_seq = std::max(info->last_seq, LiveFor(info->id)->last_seq);
  auto turn = StartTurn(*info, request->question(), request->options());
  if (!turn.ok()) return rpc::ToGrpc(turn.status());
  return Follow(context, info->id, from_seq, *turn, writer);
}

grpc::Status OrchestratorService::Resume(grpc::ServerContext* context, const pb::ResumeRequest* request,
                                         grpc::ServerWriter<pb::AnalysisEvent>* writer) {
  auto info = store_->GetSession(request->session_id());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  if (request->from_seq() < 0) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "from_seq must be >= 0");
  }
  return Follow(context, info->id, request->from_seq(), 0, writer);
}

// ---- diagnosis jobs ----

grpc::Status OrchestratorService::SubmitDiagnosis(grpc::ServerContext*,
                                                  const pb::SubmitDiagnosisRequest* request,
                                                  pb::DiagnosisJob* response) {
  if (request->trace_id().empty()) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "trace_id is required");
  }
  if (request->question().empty()) return Error(grpc::StatusCode::INVALID_ARGUMENT, "question is empty");
  if (absl::Status s = backends_.CheckTrace(request->trace_id()); !s.ok()) return rpc::ToGrpc(s);
  auto info = store_->CreateSession(request->trace_id(), request->question());
  if (!info.ok()) return rpc::ToGrpc(info.status());
  auto turn = StartTurn(*info, request->question(), request->options());
  if (!turn.ok()) {
    (void)store_->DeleteSession(info->id);
    return rpc::ToGrpc(turn.status());
  }
  response->set_job_id(info->id);
  response->set_session_id(info->id);
  response->set_status("running");
  return grpc::Status::OK;
}

grpc::Status OrchestratorService::GetDiagnosis(grpc::ServerContext*,
                                               const pb::GetDiagnosisRequest* request,
                                               pb::DiagnosisJob* response) {
  auto turns = store_->Turns(request->job_id());
  if (!turns.ok()) return rpc::ToGrpc(turns.status());
  if (turns->empty()) {
    return Error(grpc::StatusCode::NOT_FOUND, "no diagnosis job with id " + request->job_id());
  }
  const agent::TurnInfo& t = turns->front();
  response->set_job_id(request->job_id());
  response->set_session_id(request->job_id());
  response->set_status(t.status);
  if (t.status != "running") {
    response->set_report_json(t.report_json);
    auto markdown = store_->LoadArtifact(request->job_id(), kReportArtifact);
    if (markdown.ok()) response->set_report_markdown(*markdown);
    if (t.status != "done") response->set_error("the diagnosis ended with status " + t.status);
  }
  return grpc::Status::OK;
}

}  // namespace tw::services
