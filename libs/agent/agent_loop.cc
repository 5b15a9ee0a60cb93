#include "libs/agent/agent_loop.h"

#include <chrono>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/agent/agent_record.h"
#include "libs/agent/answer_parser.h"
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

nlohmann::json UsageJson(const llm::Usage& u) {
  return {{"input_tokens", u.input_tokens},
          {"output_tokens", u.output_tokens},
          {"cached_input_tokens", u.cached_input_tokens},
          {"cache_creation_tokens", u.cache_creation_tokens}};
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

AgentLoop::AgentLoop(llm::LlmProvider& llm, const strategy::StrategyLibrary& strategies,
                     ToolContext tools, verify::VerifierClient* verifier, AgentLoopOptions options)
    : llm_(llm),
      strategies_(strategies),
      tools_(tools),
      verifier_(verifier),
      options_(std::move(options)) {}

TurnOutcome AgentLoop::Run(const TurnRequest& request, AgentSession& session,
                           const AgentEventSink& emit_raw, const std::function<bool()>& cancelled) {
  const int64_t start_ns = NowNs();
  int64_t model_ns = 0;
  TurnOutcome out;
  auto emit = [&](AgentEventKind kind, nlohmann::json data) {
    if (emit_raw) emit_raw(AgentEvent{kind, std::move(data)});
  };
  auto is_cancelled = [&] { return cancelled && cancelled(); };
  const AgentLimits& limits = options_.limits;

  // Scene and mode. A follow-up that names no scene of its own stays in the session's scene.
  const strategy::Strategy* scene = nullptr;
  std::string matched_by = "explicit";
  if (!request.scene.empty()) scene = strategies_.Find(request.scene);
  if (scene == nullptr) {
    const strategy::SceneMatch match = strategies_.classifier().Classify(request.question);
    matched_by = match.matched_by;
    scene = strategies_.Find(match.scene);
    if (match.matched_by == "fallback" && session.strategy != nullptr) {
      scene = session.strategy;
      matched_by = "session";
    }
  }
  session.strategy = scene;
  const ModeChoice mode = ChooseMode(request.mode, request.question,
                                     !request.context.selection.empty(),
                                     scene != nullptr ? scene->scene : "general");
  session.mode = mode.mode;
  nlohmann::json scene_event = {{"stage", "scene"},
                                {"scene", scene != nullptr ? scene->scene : "general"},
                                {"matched_by", matched_by},
                                {"mode", AnalysisModeName(mode.mode)},
                                {"mode_reason", mode.reason}};
  if (!request.context.reference_trace_id.empty()) {
    scene_event["reference_trace_id"] = request.context.reference_trace_id;
  }
  emit(AgentEventKind::kProgress, std::move(scene_event));

  ToolContext context = tools_;
  context.session = &session;
  ToolBox box(context);
  const std::vector<llm::ToolSchema> schemas = ToSchemas(box.Specs());

  std::vector<llm::Message> conversation = request.history;
  const size_t turn_start = conversation.size();
  conversation.push_back({llm::Role::kUser, request.question});

  std::string last_text;
  std::string stop_reason;
  std::string last_error_key;
  bool nudged = false;
  bool watchdog_warned = false;
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
    if ((NowNs() - start_ns) / 1'000'000 >= limits.max_wall_ms) {
      return absl::StrCat("limit: ", limits.max_wall_ms / 1000, " s of wall time");
    }
    return "";
  };

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
    chat.messages = conversation;
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
    model_ns += NowNs() - call_start;
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
    if (!response->text.empty()) last_text = response->text;

    if (!response->tool_calls.empty() && !force_conclusion) {
      llm::Message assistant{llm::Role::kAssistant, response->text, response->tool_calls};
      conversation.push_back(std::move(assistant));
      for (const llm::ToolCall& call : response->tool_calls) {
        if (is_cancelled()) break;
        emit(AgentEventKind::kToolCall,
             {{"id", call.id}, {"tool", call.name}, {"arguments", call.arguments}});
        const size_t artifacts_before = session.artifacts.size();
        const int64_t tool_start = NowNs();
        const ToolResult result = box.Call(call.name, call.arguments);
        out.tool_ns += NowNs() - tool_start;
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
        if (session.consecutive_failures >= limits.failure_watchdog && !watchdog_warned) {
          watchdog_warned = true;
          absl::StrAppend(&content, "\n\n[watchdog] ", session.consecutive_failures,
                          " tool calls in a row have failed. Stop repeating them: read the "
                          "errors, check names with lookup_sql_schema or list_skills, or "
                          "flag_uncertainty and move on.");
        } else if (session.consecutive_failures == 0) {
          watchdog_warned = false;
        }
        conversation.push_back({llm::Role::kTool, std::move(content), {}, call.id, !result.ok});
      }
      // Reflection nudge after the first few data results (full mode): appended to the last
      // tool result, so the message order stays valid for both wire protocols.
      if (!nudged && session.mode == AnalysisMode::kFull &&
          session.data_results >= limits.reflection_after && !conversation.empty() &&
          conversation.back().role == llm::Role::kTool) {
        nudged = true;
        absl::StrAppend(&conversation.back().text,
                        "\n\n[reflect] You have several results now. In one or two sentences: "
                        "what do they show, which hypothesis do they support or reject, and "
                        "what is the next most informative step? Update the plan if needed.");
      }
      continue;
    }

    // A conclusion: parse it, verify it, and correct it if the verifier finds errors.
    const std::string answer = response->text;
    conversation.push_back({llm::Role::kAssistant, answer});
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
                             (out.corrections == 0 || key != last_error_key);
    if (!can_correct) {
      stop_reason = force_conclusion ? "limit: model calls (concluded)" : "concluded";
      break;
    }
    last_error_key = key;
    ++out.corrections;
    const std::string correction = verify::CorrectionPrompt(verdict);
    emit(AgentEventKind::kCorrection, {{"round", out.corrections}, {"prompt", correction}});
    conversation.push_back({llm::Role::kUser, correction});
  }

  // The report: the verified conclusion, or the best partial one.
  const bool concluded = !out.answer.empty();
  out.partial = !concluded || stop_reason.rfind("concluded", 0) != 0;
  out.stop_reason = stop_reason;
  if (!concluded) {
    final_answer = PartialAnswer(session, last_text, stop_reason);
    out.answer = last_text;
  }
  out.report = AgentReport(session, request.question, final_answer);
  out.report.scene_matched_by = matched_by;
  out.report.verified = verified && verdict.passed();
  out.report.verifier_issues = verdict.issues;
  if (!verified && concluded) {
    out.report.limits.push_back("The answer was not checked by the verifier.");
  }
  out.messages.assign(conversation.begin() + static_cast<std::ptrdiff_t>(turn_start),
                      conversation.end());
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
  out.report.elapsed_ns = NowNs() - start_ns;
  out.overhead_ns = out.report.elapsed_ns - model_ns;
  emit(AgentEventKind::kDone, {{"status", out.status.ok() ? "OK" : absl::StatusCodeToString(out.status.code())},
                               {"stop_reason", stop_reason},
                               {"model_calls", out.model_calls},
                               {"usage", UsageJson(out.usage)}});
  return out;
}

}  // namespace tw::agent
