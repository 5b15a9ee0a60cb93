#include "libs/agent/turn_runner.h"

#include "absl/strings/str_cat.h"
#include "libs/agent/client_tools.h"
#include "libs/agent/context_probes.h"
#include "libs/agent/offline_analyst.h"
#include "libs/agent/procedure_comparison.h"
#include "libs/agent/report_render.h"

namespace tw::agent {
namespace {

constexpr int kContinuationVersion = 1;

bool ValidMode(const std::string& mode) {
  return mode.empty() || mode == "auto" || mode == "quick" || mode == "full";
}

// The status a finished turn is stored with.
std::string StatusOf(const absl::Status& status) {
  if (status.ok()) return kTurnDone;
  return status.code() == absl::StatusCode::kCancelled ? kTurnCancelled : kTurnError;
}

// A turn that cannot start (a bad selection): the error and done events, and the result.
TurnResult Failed(const absl::Status& status, const AgentEventSink& emit) {
  TurnResult r;
  r.status = kTurnError;
  r.error = status;
  r.partial = true;
  r.stop_reason = absl::StrCat("error: ", status.message());
  if (emit) {
    emit({AgentEventKind::kError, {{"code", absl::StatusCodeToString(status.code())},
                                   {"message", std::string(status.message())}}});
    emit({AgentEventKind::kDone, {{"status", absl::StatusCodeToString(status.code())},
                                  {"stop_reason", r.stop_reason}}});
  }
  return r;
}

}  // namespace

TurnRunner::TurnRunner(const strategy::StrategyLibrary& strategies,
                       const skills::SkillLibrary* skill_library, TurnRunnerOptions options)
    : strategies_(strategies), skill_library_(skill_library), options_(std::move(options)) {}

absl::Status TurnRunner::Validate(const TurnSpec& spec) const {
  if (!ValidMode(spec.mode)) {
    return absl::InvalidArgumentError(absl::StrCat("mode must be quick, full or auto, not '", spec.mode, "'"));
  }
  if (!spec.scene.empty() && strategies_.Find(spec.scene) == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("unknown scene '", spec.scene, "'"));
  }
  if (spec.selection.time_range && spec.selection.time_range->end_ns <= spec.selection.time_range->start_ns) {
    return absl::InvalidArgumentError("selection time range must have end_ns > start_ns");
  }
  return ValidateClientTools(spec.client_tools);
}

AgentLoop TurnRunner::MakeLoop(TurnBackends& backends, const PauseSink& pause) const {
  ToolContext tools;
  tools.skills = backends.trace.skills.get();
  tools.skill_library = skill_library_;
  tools.sql = backends.trace.sql.get();
  tools.schema = backends.trace.schema.get();
  tools.strategies = &strategies_;
  if (backends.reference) {
    tools.reference = {backends.reference->trace_id, backends.reference->skills.get(),
                       backends.reference->sql.get()};
  }
  AgentLoopOptions loop = options_.loop;
  if (pause) {
    loop.client_tools.pause = [pause](const nlohmann::json& state,
                                      const std::vector<ClientToolRequest>& requests) {
      const nlohmann::json continuation = {{"version", kContinuationVersion}, {"loop", state}};
      return pause(continuation.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), requests);
    };
  }
  return AgentLoop(*backends.llm, strategies_, tools, backends.verifier.get(), std::move(loop));
}

TurnResult TurnRunner::FromOutcome(TurnOutcome outcome, const std::string& question,
                                   TurnBackends& backends, AgentSession& session) const {
  TurnResult r;
  r.usage = outcome.usage;
  r.model_calls = outcome.model_calls;
  r.overhead_ns = outcome.overhead_ns;
  if (outcome.waiting) {
    r.status = kTurnWaitingForClient;
    r.stop_reason = outcome.stop_reason;
    r.client_requests = std::move(outcome.client_requests);
    return r;
  }
  r.status = StatusOf(outcome.status);
  r.error = outcome.status;
  r.partial = outcome.partial;
  r.stop_reason = outcome.stop_reason;
  r.report = std::move(outcome.report);
  r.report.trace = backends.trace.trace_id;
  r.answer = std::move(outcome.answer);
  if (!r.answer.empty()) {
    r.exchange.push_back({llm::Role::kUser, question});
    r.exchange.push_back({llm::Role::kAssistant, r.answer});
  }
  // Nothing half-done of a failed or cancelled turn is left for the next one.
  if (!outcome.status.ok()) session.ResetTurnState();
  return r;
}

TurnResult TurnRunner::Run(const TurnSpec& spec, TurnBackends& backends, AgentSession& session,
                           const AgentEventSink& emit, const std::function<bool()>& cancelled,
                           const PauseSink& pause) {
  if (absl::Status valid = Validate(spec); !valid.ok()) return Failed(valid, emit);
  auto scope = ResolveSelection(spec.selection, *backends.trace.sql);
  if (!scope.ok()) return Failed(scope.status(), emit);
  if (backends.llm == nullptr) return RunOffline(spec, *scope, backends, emit, cancelled);

  // The agent's state belongs to one trace: another trace starts it afresh.
  if (session.trace != backends.trace.trace_id) session.ResetForTrace(backends.trace.trace_id);
  TurnRequest request;
  request.question = spec.question.empty() ? kOverviewQuestion : spec.question;
  request.mode = spec.mode.empty() ? "auto" : spec.mode;
  request.scene = spec.scene;
  request.history = spec.history;
  request.client_tools = spec.client_tools;
  request.context.trace_context = backends.trace.context;
  if (request.context.trace_context.empty()) {
    if (auto probed = ProbeTraceContext(*backends.trace.sql); probed.ok()) {
      request.context.trace_context = probed->Describe();
    }
  }
  if (*scope) {
    request.context.selection = (*scope)->description;
    request.scope = (*scope)->window;
  }
  if (backends.reference) request.context.reference_trace_id = backends.reference->trace_id;
  AgentLoop loop = MakeLoop(backends, pause);
  TurnResult result = FromOutcome(loop.Run(request, session, emit, cancelled), request.question,
                                  backends, session);
  if (*scope && result.status != kTurnWaitingForClient) result.report.scope = (*scope)->label;
  return result;
}

TurnResult TurnRunner::Resume(const std::string& continuation, const std::vector<ClientToolSlot>& answers,
                              TurnBackends& backends, AgentSession& session, const AgentEventSink& emit,
                              const std::function<bool()>& cancelled, const PauseSink& pause) {
  const nlohmann::json parsed = nlohmann::json::parse(continuation, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object() || parsed.value("version", 0) != kContinuationVersion ||
      !parsed.contains("loop")) {
    return Failed(absl::InvalidArgumentError("the turn's continuation cannot be read"), emit);
  }
  if (backends.llm == nullptr) {
    return Failed(absl::FailedPreconditionError(
                      "the turn waited for the client, but no LLM is configured here any more"),
                  emit);
  }
  AgentLoop loop = MakeLoop(backends, pause);
  const nlohmann::json& state = parsed["loop"];
  std::string question;
  if (state.contains("request") && state["request"].is_object()) {
    question = state["request"].value("question", "");
  }
  TurnResult result =
      FromOutcome(loop.Resume(state, answers, session, emit, cancelled), question, backends, session);
  if (result.status != kTurnWaitingForClient && state.contains("request") &&
      state["request"].contains("scope")) {
    const auto& w = state["request"]["scope"];
    int64_t start = 0;
    auto bounds = backends.trace.sql->Query("SELECT start_ts FROM trace_bounds", {}, 1);
    if (bounds.ok() && !bounds->rows.empty()) start = bounds->rows[0][0].int_value;
    result.report.scope = WindowLabel({w[0].get<int64_t>(), w[1].get<int64_t>()}, start);
  }
  return result;
}

TurnResult TurnRunner::RunOffline(const TurnSpec& spec, const std::optional<SelectionScope>& scope,
                                  TurnBackends& backends, const AgentEventSink& emit,
                                  const std::function<bool()>& cancelled) {
  auto send = [&](AgentEventKind kind, nlohmann::json data) {
    if (emit) emit({kind, std::move(data)});
  };
  send(AgentEventKind::kProgress, {{"stage", "offline"},
                                   {"message", "no LLM configured: running the offline analyst"}});
  OfflineAnalyst analyst(strategies_, *backends.trace.skills, backends.verifier.get());
  OfflineAnalystOptions o;
  o.scene = spec.scene;
  o.scope = scope;
  o.on_step = [&](const AnalysisStep& step) {
    send(AgentEventKind::kProgress, {{"stage", "skill"},
                                     {"id", step.id},
                                     {"skill", step.skill},
                                     {"status", step.status},
                                     {"message", step.message},
                                     {"elapsed_ns", step.elapsed_ns},
                                     {"artifacts", step.artifacts}});
  };
  TurnResult r;
  r.offline = true;
  r.report = analyst.Analyze(spec.question, backends.trace.trace_id, o);
  const bool stop = cancelled && cancelled();
  // A comparison: the scene procedure's key numbers on both traces, as difference tables and a
  // section of the report.
  if (backends.reference && !stop) {
    if (const strategy::Strategy* scene = strategies_.Find(r.report.scene)) {
      ProcedureComparisonOptions compare;
      compare.context_probes = strategies_.context_probes();
      compare.current_label = backends.trace.trace_id;
      compare.reference_label = backends.reference->trace_id;
      compare.cancelled = cancelled;
      compare.on_skill = [&](const std::string& skill) {
        send(AgentEventKind::kProgress, {{"stage", "comparison"},
                                         {"skill", skill},
                                         {"reference_trace_id", backends.reference->trace_id}});
      };
      ProcedureComparison comparison =
          CompareProcedure(*scene, *backends.trace.skills, *backends.reference->skills, compare);
      for (const auto& table : comparison.differences) {
        send(AgentEventKind::kDataEnvelope, ArtifactJson(*table, 50));
        r.report.artifacts.push_back(table);
      }
      r.report.comparison = std::move(comparison.markdown);
    }
  }
  for (const ReportFinding& f : r.report.findings) {
    send(AgentEventKind::kFinding, {{"id", f.id},
                                    {"severity", FindingSeverityName(f.severity)},
                                    {"title", f.title},
                                    {"description", f.description},
                                    {"evidence", f.evidence}});
  }
  r.answer = RenderMarkdown(r.report);
  send(AgentEventKind::kConclusion, {{"answer", r.answer}, {"verified", r.report.verified}, {"deterministic", true}});
  const bool was_cancelled = cancelled && cancelled();
  r.status = was_cancelled ? kTurnCancelled : kTurnDone;
  if (was_cancelled) r.error = absl::CancelledError("the turn was cancelled");
  r.stop_reason = "offline analyst";
  send(AgentEventKind::kDone, {{"status", was_cancelled ? "CANCELLED" : "OK"}, {"stop_reason", r.stop_reason}});
  return r;
}

}  // namespace tw::agent
