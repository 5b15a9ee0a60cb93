#include "libs/agent/agent_loop.h"

#include <chrono>
#include <mutex>
#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "libs/agent/agent_record.h"
#include "libs/agent/agent_session_json.h"
#include "libs/agent/answer_parser.h"
#include "libs/agent/client_tools.h"
#include "libs/agent/report_render.h"
#include "libs/common/utf8.h"
#include "libs/verify/correction_prompt.h"

namespace tw::agent {
namespace {

constexpr size_t kEnvelopeRows = 20;      // rows of a data envelope event
constexpr size_t kResultSummaryChars = 400;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::vector<llm::ToolSchema> ToSchemas(const std::vector<ToolSpec>& specs) {
  std::vector<llm::ToolSchema> out;
  out.reserve(specs.size());
  for (const ToolSpec& s : specs) out.push_back({s.name, s.description, s.parameters});
  return out;
}

nlohmann::json UsageJson(const llm::Usage& u) { return UsageToJson(u); }

int64_t UnixNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Client-tool request ids are random, so one client cannot guess another's requests.
std::string RandomRequestId() {
  static std::mutex mu;
  static std::mt19937_64 rng(std::random_device{}());
  std::lock_guard<std::mutex> lock(mu);
  return absl::StrFormat("ct-%016x", rng());
}

bool Offered(const std::vector<std::string>& client_tools, const std::string& name) {
  for (const std::string& t : client_tools) {
    if (t == name) return true;
  }
  return false;
}

nlohmann::json ArgumentsJson(const std::string& arguments) {
  nlohmann::json j = nlohmann::json::parse(arguments.empty() ? "{}" : arguments, nullptr, false);
  return j.is_discarded() ? nlohmann::json(arguments) : j;
}

nlohmann::json PlanJson(const AnalysisPlan& plan) {
  nlohmann::json phases = nlohmann::json::array();
  for (const PlannedPhase& p : plan.phases()) {
    phases.push_back({{"id", p.id}, {"goal", p.goal}, {"status", p.status}, {"summary", p.summary}});
  }
  return {{"present", plan.present()},
          {"aspects", plan.covered_aspects()},
          {"phases", phases},
          {"revisions", plan.revisions()}};
}

nlohmann::json HypothesesJson(const HypothesisBoard& board) {
  nlohmann::json out = nlohmann::json::array();
  for (const AgentHypothesis& h : board.all()) {
    out.push_back({{"id", h.id},
                   {"statement", h.statement},
                   {"status", h.status},
                   {"evidence", h.evidence},
                   {"resolution", h.resolution}});
  }
  return out;
}

// A key of the error-level issues, to tell whether a correction changed anything.
std::string ErrorKey(const verify::VerifyResult& result) {
  std::string key;
  for (const auto& issue : result.issues) {
    if (issue.severity == verify::IssueSeverity::kError) {
      absl::StrAppend(&key, issue.kind, "|", issue.finding_id, "|", issue.message, "\n");
    }
  }
  return key;
}

nlohmann::json IssuesJson(const verify::VerifyResult& result) {
  nlohmann::json issues = nlohmann::json::array();
  for (const auto& issue : result.issues) {
    issues.push_back({{"severity", issue.severity == verify::IssueSeverity::kError ? "error" : "warning"},
                      {"kind", issue.kind},
                      {"message", issue.message},
                      {"finding", issue.finding_id}});
  }
  return {{"passed", result.passed()}, {"errors", result.errors()}, {"issues", issues}};
}

bool IsPlanTool(const std::string& name) {
  return name == "submit_plan" || name == "revise_plan" || name == "update_plan_phase";
}
bool IsHypothesisTool(const std::string& name) {
  return name == "submit_hypothesis" || name == "resolve_hypothesis";
}

// The part of a partial turn that is still worth reporting: what the model wrote, and when it
// found nothing structured, the skills' own diagnostic findings.
ParsedAnswer PartialAnswer(const AgentSession& session, const std::string& text,
                           const std::string& why) {
  ParsedAnswer answer = ParseAnswer(text);
  if (answer.findings.empty()) {
    int n = 0;
    for (const skills::Finding& f : session.skill_findings) {
      ReportFinding rf = ReportFindingFromSkill(f);
      rf.id = "F" + std::to_string(++n);
      answer.findings.push_back(std::move(rf));
    }
  }
  if (answer.summary.empty()) {
    answer.summary = absl::StrCat("The analysis stopped before a conclusion (", why,
                                  "). What it established so far is below.");
  }
  answer.limits.push_back(absl::StrCat("Analysis incomplete: ", why, "."));
  return answer;
}

}  // namespace

// One tool call of the last model message, and its result once there is one.
struct StepCall {
  llm::ToolCall call;
  bool client = false;     // runs in the client
  std::string request_id;  // a client call sent to the client
  bool settled = false;
  bool ok = false;
  std::string content;
  std::vector<llm::ImageContent> images;
};

// Everything the loop carries between model calls: what a paused turn persists.
struct AgentLoop::LoopState {
  TurnRequest request;
  std::string matched_by;
  std::vector<llm::Message> conversation;
  size_t turn_start = 0;
  std::string last_text;
  std::string last_error_key;
  bool nudged = false;
  bool watchdog_warned = false;
  int model_calls = 0;
  int corrections = 0;
  llm::Usage usage;
  int64_t active_ns = 0;  // wall time of earlier segments; a wait for the client does not count
  int64_t model_ns = 0;
  int64_t tool_ns = 0;
  std::vector<StepCall> step;  // the calls of the last model message while some are unanswered
};

namespace {

nlohmann::json RequestJson(const TurnRequest& r) {
  nlohmann::json j = {{"question", r.question},
                      {"mode", r.mode},
                      {"scene", r.scene},
                      {"trace_context", r.context.trace_context},
                      {"selection", r.context.selection},
                      {"prior_findings", r.context.prior_findings},
                      {"reference_trace_id", r.context.reference_trace_id},
                      {"history", MessagesToJson(r.history)},
                      {"client_tools", r.client_tools}};
  if (r.scope) j["scope"] = {r.scope->start_ns, r.scope->end_ns};
  return j;
}

absl::StatusOr<TurnRequest> RequestFrom(const nlohmann::json& j) {
  TurnRequest r;
  r.question = j.value("question", "");
  r.mode = j.value("mode", "auto");
  r.scene = j.value("scene", "");
  r.context.trace_context = j.value("trace_context", "");
  r.context.selection = j.value("selection", "");
  r.context.prior_findings = j.value("prior_findings", "");
  r.context.reference_trace_id = j.value("reference_trace_id", "");
  auto history = MessagesFromJson(j.value("history", nlohmann::json::array()));
  if (!history.ok()) return history.status();
  r.history = std::move(*history);
  r.client_tools = j.value("client_tools", std::vector<std::string>{});
  if (j.contains("scope") && j["scope"].is_array() && j["scope"].size() == 2) {
    r.scope = TimeWindow{j["scope"][0].get<int64_t>(), j["scope"][1].get<int64_t>()};
  }
  return r;
}

}  // namespace

AgentLoop::AgentLoop(llm::LlmProvider& llm, const strategy::StrategyLibrary& strategies,
                     ToolContext tools, verify::VerifierClient* verifier, AgentLoopOptions options)
    : llm_(llm),
      strategies_(strategies),
      tools_(tools),
      verifier_(verifier),
      options_(std::move(options)) {}

TurnOutcome AgentLoop::Run(const TurnRequest& request, AgentSession& session,
                           const AgentEventSink& emit_raw, const std::function<bool()>& cancelled) {
  session.BeginTurn();
  LoopState st;
  st.request = request;

  // Scene and mode. A follow-up that names no scene of its own stays in the session's scene.
  const strategy::Strategy* scene = nullptr;
  st.matched_by = "explicit";
  if (!request.scene.empty()) scene = strategies_.Find(request.scene);
  if (scene == nullptr) {
    const strategy::SceneMatch match = strategies_.classifier().Classify(request.question);
    st.matched_by = match.matched_by;
    scene = strategies_.Find(match.scene);
    if (match.matched_by == "fallback" && session.strategy != nullptr) {
      scene = session.strategy;
      st.matched_by = "session";
    }
  }
  session.strategy = scene;
  const ModeChoice mode = ChooseMode(request.mode, request.question,
                                     !request.context.selection.empty(),
                                     scene != nullptr ? scene->scene : "general");
  session.mode = mode.mode;
  nlohmann::json scene_event = {{"stage", "scene"},
                                {"scene", scene != nullptr ? scene->scene : "general"},
                                {"matched_by", st.matched_by},
                                {"mode", AnalysisModeName(mode.mode)},
                                {"mode_reason", mode.reason}};
  if (!request.context.reference_trace_id.empty()) {
    scene_event["reference_trace_id"] = request.context.reference_trace_id;
  }
  if (emit_raw) emit_raw(AgentEvent{AgentEventKind::kProgress, std::move(scene_event)});

  st.conversation = request.history;
  st.turn_start = st.conversation.size();
  st.conversation.push_back({llm::Role::kUser, request.question});
  return Drive(st, session, emit_raw, cancelled);
}

TurnOutcome AgentLoop::Resume(const nlohmann::json& state, const std::vector<ClientToolSlot>& answers,
                              AgentSession& session, const AgentEventSink& emit_raw,
                              const std::function<bool()>& cancelled) {
  auto emit = [&](AgentEventKind kind, nlohmann::json data) {
    if (emit_raw) emit_raw(AgentEvent{kind, std::move(data)});
  };
  LoopState st;
  absl::Status parsed = [&]() -> absl::Status {
    try {
      auto request = RequestFrom(state.at("request"));
      if (!request.ok()) return request.status();
      st.request = std::move(*request);
      auto restored = AgentSessionFromJson(state.at("session"), strategies_);
      if (!restored.ok()) return restored.status();
      session = std::move(*restored);
      st.matched_by = state.value("matched_by", "");
      auto conversation = MessagesFromJson(state.at("conversation"));
      if (!conversation.ok()) return conversation.status();
      st.conversation = std::move(*conversation);
      st.turn_start = state.value("turn_start", size_t{0});
      st.last_text = state.value("last_text", "");
      st.last_error_key = state.value("last_error_key", "");
      st.nudged = state.value("nudged", false);
      st.watchdog_warned = state.value("watchdog_warned", false);
      st.model_calls = state.value("model_calls", 0);
      st.corrections = state.value("corrections", 0);
      st.usage = UsageFromJson(state.value("usage", nlohmann::json::object()));
      st.active_ns = state.value("active_ns", int64_t{0});
      st.model_ns = state.value("model_ns", int64_t{0});
      st.tool_ns = state.value("tool_ns", int64_t{0});
      for (const nlohmann::json& c : state.at("step")) {
        StepCall call;
        call.call = {c.at("id").get<std::string>(), c.at("name").get<std::string>(),
                     c.at("arguments").get<std::string>()};
        call.client = c.value("client", false);
        call.request_id = c.value("request_id", "");
        call.settled = c.value("settled", false);
        call.ok = c.value("ok", false);
        call.content = c.value("content", "");
        st.step.push_back(std::move(call));
      }
    } catch (const nlohmann::json::exception& e) {
      return absl::InvalidArgumentError(absl::StrCat("malformed turn state: ", e.what()));
    }
    if (st.turn_start > st.conversation.size()) {
      return absl::InvalidArgumentError("malformed turn state: the turn starts past its conversation");
    }
    return absl::OkStatus();
  }();
  if (!parsed.ok()) {
    TurnOutcome out;
    out.status = parsed;
    out.partial = true;
    out.stop_reason = absl::StrCat("error: ", parsed.message());
    emit(AgentEventKind::kError, {{"code", absl::StatusCodeToString(parsed.code())},
                                  {"message", std::string(parsed.message())}});
    emit(AgentEventKind::kDone, {{"status", absl::StatusCodeToString(parsed.code())},
                                 {"stop_reason", out.stop_reason}});
    return out;
  }

  // The client's answers settle the waiting calls; the model reads them in call order.
  for (StepCall& call : st.step) {
    if (call.settled) continue;
    ClientToolSlot slot;
    slot.request = {call.request_id, call.call.name, call.call.arguments, 0};
    slot.state = ClientToolState::kCancelled;
    for (const ClientToolSlot& a : answers) {
      if (a.request.request_id == call.request_id) slot = a;
    }
    const ClientToolOutcome outcome = ClientToolOutcomeOf(slot, options_.client_tools.timeout_ms);
    call.settled = true;
    call.ok = outcome.ok;
    call.content = outcome.text;
    call.images = outcome.images;
    ToolCallRecord record;
    record.tool = call.call.name;
    record.arguments = call.call.arguments;
    record.ok = outcome.ok;
    if (!outcome.ok) record.error = outcome.text;
    session.tool_calls.push_back(std::move(record));
    emit(AgentEventKind::kToolResult, {{"id", call.call.id},
                                       {"tool", call.call.name},
                                       {"ok", outcome.ok},
                                       {"summary", outcome.summary},
                                       {"artifacts", nlohmann::json::array()},
                                       {"client", true},
                                       {"request_id", call.request_id}});
  }
  return Drive(st, session, emit_raw, cancelled);
}

TurnOutcome AgentLoop::Drive(LoopState& st, AgentSession& session, const AgentEventSink& emit_raw,
                             const std::function<bool()>& cancelled) {
  const int64_t segment_start = NowNs();
  TurnOutcome out;
  out.model_calls = st.model_calls;
  out.corrections = st.corrections;
  out.usage = st.usage;
  auto emit = [&](AgentEventKind kind, nlohmann::json data) {
    if (emit_raw) emit_raw(AgentEvent{kind, std::move(data)});
  };
  auto is_cancelled = [&] { return cancelled && cancelled(); };
  auto active_ns = [&] { return st.active_ns + (NowNs() - segment_start); };
  const AgentLimits& limits = options_.limits;
  const TurnRequest& request = st.request;
  const ClientToolHooks& hooks = options_.client_tools;

  ToolContext context = tools_;
  context.session = &session;
  context.client_tools = request.client_tools;
  context.scope = request.scope;
  ToolBox box(context);
  const std::vector<llm::ToolSchema> schemas = ToSchemas(box.Specs());

  std::string stop_reason;
  bool force_conclusion = false;  // a limit is near: one last call without tools
  verify::VerifyResult verdict;
  bool verified = false;
  ParsedAnswer final_answer;

  auto limit_reached = [&]() -> std::string {
    if (out.model_calls >= limits.max_model_calls) {
      return absl::StrCat("limit: ", limits.max_model_calls, " model calls");
    }
    if (out.usage.input_tokens + out.usage.output_tokens >= limits.max_total_tokens) {
      return absl::StrCat("limit: ", limits.max_total_tokens, " tokens");
    }
    if (limits.max_cost_usd > 0 && options_.cost_of &&
        options_.cost_of(out.usage) >= limits.max_cost_usd) {
      return absl::StrCat("limit: cost budget of $", limits.max_cost_usd);
    }
    if (active_ns() / 1'000'000 >= limits.max_wall_ms) {
      return absl::StrCat("limit: ", limits.max_wall_ms / 1000, " s of wall time");
    }
    return "";
  };

  // The results of a model message's calls go back in call order, once all are in.
  auto finish_step = [&] {
    for (StepCall& call : st.step) {
      llm::Message m{llm::Role::kTool, std::move(call.content), {}, call.call.id, !call.ok};
      m.images = std::move(call.images);
      st.conversation.push_back(std::move(m));
    }
    st.step.clear();
    // Reflection nudge after the first few data results (full mode): appended to the last
    // tool result, so the message order stays valid for both wire protocols.
    if (!st.nudged && session.mode == AnalysisMode::kFull &&
        session.data_results >= limits.reflection_after && !st.conversation.empty() &&
        st.conversation.back().role == llm::Role::kTool) {
      st.nudged = true;
      absl::StrAppend(&st.conversation.back().text,
                      "\n\n[reflect] You have several results now. In one or two sentences: "
                      "what do they show, which hypothesis do they support or reject, and "
                      "what is the next most informative step? Update the plan if needed.");
    }
  };
  // A client call settled here (bad arguments, run in process, no way to reach the client).
  auto settle_client = [&](StepCall& call, bool ok, std::string content, std::string summary) {
    call.settled = true;
    call.ok = ok;
    call.content = std::move(content);
    ToolCallRecord record;
    record.tool = call.call.name;
    record.arguments = call.call.arguments;
    record.ok = ok;
    if (!ok) record.error = call.content;
    session.tool_calls.push_back(std::move(record));
    emit(AgentEventKind::kToolResult, {{"id", call.call.id},
                                       {"tool", call.call.name},
                                       {"ok", ok},
                                       {"summary", std::move(summary)},
                                       {"artifacts", nlohmann::json::array()},
                                       {"client", true}});
  };

  // A resumed turn first hands the model the results of the step it paused in.
  if (!st.step.empty()) finish_step();

  while (true) {
    if (is_cancelled()) {
      stop_reason = "cancelled";
      out.status = absl::CancelledError("the turn was cancelled");
      break;
    }
    if (const std::string limit = limit_reached(); !limit.empty()) {
      stop_reason = limit;
      break;
    }
    // The last model call a limit allows is spent on concluding.
    if (!force_conclusion && out.model_calls + 1 >= limits.max_model_calls) {
      force_conclusion = true;
    }

    auto prompt = BuildTurnPrompt(strategies_, session, request.context, options_.prompt_token_budget);
    if (!prompt.ok()) {
      stop_reason = absl::StrCat("error: ", prompt.status().message());
      out.status = prompt.status();
      break;
    }
    llm::ChatRequest chat;
    chat.system = std::move(prompt->system);
    chat.messages = st.conversation;
    chat.options = options_.request;
    if (force_conclusion) {
      chat.messages.push_back({llm::Role::kUser,
                               "The analysis budget is nearly spent. Conclude now from the results "
                               "you have, in the final answer format; say what remains unchecked."});
      chat.options.tool_choice = llm::ToolChoice::kNone;
    } else {
      chat.tools = schemas;
    }
    emit(AgentEventKind::kProgress, {{"stage", "model_call"},
                                     {"call", out.model_calls + 1},
                                     {"prompt_tokens_estimate", prompt->assembled.estimated_tokens},
                                     {"dropped_sections", prompt->assembled.dropped}});
    llm::StreamCallbacks callbacks;
    const int call_number = out.model_calls + 1;
    callbacks.on_text = [&](const std::string& delta) {
      emit(AgentEventKind::kTextDelta, {{"call", call_number}, {"text", delta}});
    };
    callbacks.is_cancelled = is_cancelled;
    const int64_t call_start = NowNs();
    auto response = llm_.Chat(chat, callbacks);
    st.model_ns += NowNs() - call_start;
    ++out.model_calls;
    if (!response.ok()) {
      out.status = response.status();
      if (response.status().code() == absl::StatusCode::kCancelled) {
        stop_reason = "cancelled";
      } else {
        stop_reason = absl::StrCat("error: ", response.status().message());
        emit(AgentEventKind::kError, {{"code", absl::StatusCodeToString(response.status().code())},
                                      {"message", std::string(response.status().message())}});
      }
      break;
    }
    out.usage += response->usage;
    {
      nlohmann::json usage = UsageJson(out.usage);
      // The model as the provider reported it: the report's provenance names it.
      if (!response->model.empty()) usage["model"] = response->model;
      emit(AgentEventKind::kUsage, std::move(usage));
    }
    if (!response->text.empty()) st.last_text = response->text;

    if (!response->tool_calls.empty() && !force_conclusion) {
      llm::Message assistant{llm::Role::kAssistant, response->text, response->tool_calls};
      st.conversation.push_back(std::move(assistant));
      st.step.clear();
      for (const llm::ToolCall& call : response->tool_calls) {
        StepCall& step = st.step.emplace_back();
        step.call = call;
        if (is_cancelled()) {
          step.settled = true;
          step.content = "Cancelled before this call ran.";
          continue;
        }
        emit(AgentEventKind::kToolCall,
             {{"id", call.id}, {"tool", call.name}, {"arguments", call.arguments}});
        if (Offered(request.client_tools, call.name)) {
          step.client = true;
          if (const std::string problem = CheckClientToolArguments(call.name, call.arguments);
              !problem.empty()) {
            settle_client(step, false, problem, problem);
          } else if (hooks.run_now) {
            ClientToolSlot slot;
            slot.request = {"", call.name, call.arguments, 0};
            std::optional<ClientToolAnswer> answer = hooks.run_now(slot.request);
            slot.state = answer ? ClientToolState::kAnswered : ClientToolState::kCancelled;
            if (answer) slot.answer = *answer;
            ClientToolOutcome outcome = ClientToolOutcomeOf(slot, hooks.timeout_ms);
            if (!answer) outcome.text = absl::StrCat("This client cannot run ", call.name, ".");
            step.images = std::move(outcome.images);
            settle_client(step, answer.has_value(), std::move(outcome.text), outcome.summary);
          } else if (hooks.pause) {
            step.request_id = hooks.new_request_id ? hooks.new_request_id() : RandomRequestId();
          } else {
            const std::string text = absl::StrCat("This client cannot run ", call.name, ".");
            settle_client(step, false, text, text);
          }
          continue;
        }
        const size_t artifacts_before = session.artifacts.size();
        const int64_t tool_start = NowNs();
        const ToolResult result = box.Call(call.name, call.arguments);
        st.tool_ns += NowNs() - tool_start;
        emit(AgentEventKind::kToolResult,
             {{"id", call.id},
              {"tool", call.name},
              {"ok", result.ok},
              {"summary", Utf8Prefix(result.content, kResultSummaryChars)},
              {"artifacts", result.artifacts}});
        if (session.artifacts.size() != artifacts_before) {
          for (const std::string& id : result.artifacts) {
            auto it = session.artifacts.find(id);
            if (it != session.artifacts.end()) {
              emit(AgentEventKind::kDataEnvelope, ArtifactJson(*it->second, kEnvelopeRows));
            }
          }
        }
        if (IsPlanTool(call.name)) emit(AgentEventKind::kPlan, PlanJson(session.plan));
        if (IsHypothesisTool(call.name)) {
          emit(AgentEventKind::kHypothesis, {{"hypotheses", HypothesesJson(session.hypotheses)}});
        }
        std::string content = result.content;
        // Watchdog: the model keeps failing the same way — tell it plainly.
        if (session.consecutive_failures >= limits.failure_watchdog && !st.watchdog_warned) {
          st.watchdog_warned = true;
          absl::StrAppend(&content, "\n\n[watchdog] ", session.consecutive_failures,
                          " tool calls in a row have failed. Stop repeating them: read the "
                          "errors, check names with lookup_sql_schema or list_skills, or "
                          "flag_uncertainty and move on.");
        } else if (session.consecutive_failures == 0) {
          st.watchdog_warned = false;
        }
        step.settled = true;
        step.ok = result.ok;
        step.content = std::move(content);
      }

      // Calls for the client: persist the turn, tell the client, free the thread.
      std::vector<ClientToolRequest> requests;
      const int64_t deadline = UnixNowNs() + hooks.timeout_ms * 1'000'000;
      for (const StepCall& call : st.step) {
        if (!call.settled) requests.push_back({call.request_id, call.call.name, call.call.arguments, deadline});
      }
      if (!requests.empty() && is_cancelled()) {
        // Cancelled while the calls ran: nothing goes to the client.
        for (StepCall& call : st.step) {
          if (!call.settled) settle_client(call, false, "Cancelled before the client was asked.", "cancelled");
        }
        requests.clear();
      }
      if (!requests.empty()) {
        st.model_calls = out.model_calls;
        st.corrections = out.corrections;
        st.usage = out.usage;
        st.active_ns = active_ns();
        nlohmann::json state = {{"request", RequestJson(st.request)},
                                {"session", AgentSessionToJson(session)},
                                {"matched_by", st.matched_by},
                                {"conversation", MessagesToJson(st.conversation)},
                                {"turn_start", st.turn_start},
                                {"last_text", st.last_text},
                                {"last_error_key", st.last_error_key},
                                {"nudged", st.nudged},
                                {"watchdog_warned", st.watchdog_warned},
                                {"model_calls", st.model_calls},
                                {"corrections", st.corrections},
                                {"usage", UsageJson(st.usage)},
                                {"active_ns", st.active_ns},
                                {"model_ns", st.model_ns},
                                {"tool_ns", st.tool_ns}};
        nlohmann::json step = nlohmann::json::array();
        for (const StepCall& call : st.step) {
          step.push_back({{"id", call.call.id}, {"name", call.call.name}, {"arguments", call.call.arguments},
                          {"client", call.client}, {"request_id", call.request_id},
                          {"settled", call.settled}, {"ok", call.ok}, {"content", call.content}});
        }
        state["step"] = std::move(step);
        const absl::Status paused = hooks.pause(state, requests);
        if (paused.ok()) {
          for (const ClientToolRequest& r : requests) {
            emit(AgentEventKind::kClientToolRequest, {{"request_id", r.request_id},
                                                      {"tool", r.tool},
                                                      {"arguments", ArgumentsJson(r.arguments)},
                                                      {"deadline_unix_ns", r.deadline_ns},
                                                      {"timeout_ms", hooks.timeout_ms}});
          }
          out.waiting = true;
          out.client_requests = std::move(requests);
          out.stop_reason = "waiting for the client";
          out.tool_ns = st.tool_ns;
          out.overhead_ns = st.active_ns - st.model_ns;
          return out;
        }
        for (StepCall& call : st.step) {
          if (call.settled) continue;
          const std::string text = absl::StrCat("The client could not be asked to run ", call.call.name,
                                                ": ", paused.message());
          settle_client(call, false, text, text);
        }
      }
      finish_step();
      continue;
    }

    // A conclusion: parse it, verify it, and correct it if the verifier finds errors.
    const std::string answer = response->text;
    st.conversation.push_back({llm::Role::kAssistant, answer});
    final_answer = ParseAnswer(answer);
    out.answer = answer;
    if (verifier_ == nullptr) {
      stop_reason = force_conclusion ? "limit: model calls (concluded)" : "concluded";
      break;
    }
    emit(AgentEventKind::kProgress, {{"stage", "verifying"}});
    verdict = verifier_->Verify(AgentAnalysisRecord(session, final_answer, answer));
    verified = true;
    emit(AgentEventKind::kVerifierIssues, IssuesJson(verdict));
    const std::string key = ErrorKey(verdict);
    const bool can_correct = !verdict.passed() && !force_conclusion &&
                             out.corrections < limits.max_corrections &&
                             (out.corrections == 0 || key != st.last_error_key);
    if (!can_correct) {
      stop_reason = force_conclusion ? "limit: model calls (concluded)" : "concluded";
      break;
    }
    st.last_error_key = key;
    ++out.corrections;
    const std::string correction = verify::CorrectionPrompt(verdict);
    emit(AgentEventKind::kCorrection, {{"round", out.corrections}, {"prompt", correction}});
    st.conversation.push_back({llm::Role::kUser, correction});
  }

  // The report: the verified conclusion, or the best partial one.
  const bool concluded = !out.answer.empty();
  out.partial = !concluded || stop_reason.rfind("concluded", 0) != 0;
  out.stop_reason = stop_reason;
  if (!concluded) {
    final_answer = PartialAnswer(session, st.last_text, stop_reason);
    out.answer = st.last_text;
  }
  out.report = AgentReport(session, request.question, final_answer);
  out.report.scene_matched_by = st.matched_by;
  out.report.verified = verified && verdict.passed();
  out.report.verifier_issues = verdict.issues;
  if (!verified && concluded) {
    out.report.limits.push_back("The answer was not checked by the verifier.");
  }
  out.messages.assign(st.conversation.begin() + static_cast<std::ptrdiff_t>(st.turn_start),
                      st.conversation.end());
  for (const ReportFinding& f : out.report.findings) {
    emit(AgentEventKind::kFinding, {{"id", f.id},
                                    {"severity", FindingSeverityName(f.severity)},
                                    {"title", f.title},
                                    {"description", f.description},
                                    {"evidence", f.evidence}});
  }
  if (!out.answer.empty() || concluded) {
    emit(AgentEventKind::kConclusion, {{"answer", out.answer},
                                       {"verified", out.report.verified},
                                       {"partial", out.partial},
                                       {"corrections", out.corrections}});
  }
  out.report.elapsed_ns = active_ns();
  out.overhead_ns = out.report.elapsed_ns - st.model_ns;
  out.tool_ns = st.tool_ns;
  emit(AgentEventKind::kDone, {{"status", out.status.ok() ? "OK" : absl::StatusCodeToString(out.status.code())},
                               {"stop_reason", stop_reason},
                               {"model_calls", out.model_calls},
                               {"usage", UsageJson(out.usage)}});
  return out;
}

}  // namespace tw::agent
