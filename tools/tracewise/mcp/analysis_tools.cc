#include "tools/tracewise/mcp/analysis_tools.h"

#include <atomic>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/agent/report_render.h"

namespace tw::mcp {
namespace {

// What one event of a turn says as a progress message; empty for events too fine to report
// (streamed text, usage).
std::string ProgressMessage(const agent::AgentEvent& e) {
  const Json& d = e.data;
  auto str = [&](const char* key) { return d.contains(key) && d[key].is_string() ? d[key].get<std::string>() : ""; };
  switch (e.kind) {
    case agent::AgentEventKind::kProgress: {
      const std::string stage = str("stage");
      if (stage == "scene") return absl::StrCat("scene: ", str("scene"));
      if (stage == "skill") {
        return absl::StrCat("skill ", str("skill"), str("status").empty() ? "" : absl::StrCat(": ", str("status")));
      }
      if (!str("message").empty()) return str("message");
      return stage.empty() ? "" : absl::StrCat(stage, d.contains("skill") ? absl::StrCat(" ", str("skill")) : "");
    }
    case agent::AgentEventKind::kToolCall:
      return absl::StrCat("tool ", str("tool"));
    case agent::AgentEventKind::kFinding:
      return absl::StrCat("finding: ", str("title"));
    case agent::AgentEventKind::kVerifierIssues:
      return "verified";
    case agent::AgentEventKind::kCorrection:
      return "correcting the answer after verification";
    case agent::AgentEventKind::kConclusion:
      return "concluded";
    case agent::AgentEventKind::kError:
      return absl::StrCat("error: ", str("message"));
    default:
      return "";
  }
}

constexpr size_t kArtifactRows = 50;

const Json& OutcomeSchema() {
  static const Json kSchema = Json::parse(R"json({
    "type": "object",
    "properties": {
      "session_id": {"type": "string", "description": "pass to ask for follow-up questions"},
      "trace_id": {"type": "string"},
      "turn": {"type": "integer"},
      "status": {"type": "string", "enum": ["done", "error", "cancelled"]},
      "deterministic": {"type": "boolean", "description": "true: the offline analyst answered (no LLM)"},
      "report": {
        "type": "object",
        "description": "the analysis report (the shape `tracewise analyze --format json` prints)",
        "properties": {
          "question": {"type": "string"},
          "scene": {"type": "string"},
          "overview": {"type": "string"},
          "verified": {"type": "boolean"},
          "findings": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "string"}, "severity": {"type": "string"}, "title": {"type": "string"},
            "description": {"type": "string"}, "evidence": {"type": "array", "items": {"type": "string"}},
            "suggestions": {"type": "array", "items": {"type": "string"}}},
            "required": ["severity", "title"]}},
          "causal_chain": {"type": "array", "items": {"type": "object"}},
          "recommendations": {"type": "array", "items": {"type": "string"}},
          "limits": {"type": "array", "items": {"type": "string"}},
          "artifacts": {"type": "array", "items": {"type": "object"}}
        },
        "required": ["scene", "findings"]
      }
    },
    "required": ["session_id", "trace_id", "turn", "status", "report"]
  })json");
  return kSchema;
}

ToolResult RunTurn(TurnHost& host, TurnRequest request, const ToolCall& call) {
  int step = 0;
  auto emit = [&](const agent::AgentEvent& e) {
    const std::string message = ProgressMessage(e);
    if (!message.empty()) call.Progress(++step, 0, message);
  };
  auto outcome = host.Run(request, emit, call.cancelled);
  if (!outcome.ok()) return ToolResult::Error(std::string(outcome.status().message()));
  if (outcome->status == "cancelled" || call.is_cancelled()) return ToolResult::Error("the analysis was cancelled");
  Json report = Json::parse(agent::RenderJson(outcome->report), nullptr, false);
  // Evidence tables keep their first rows here (total_rows says how many there are); the
  // skills and SQL that made them give the rest.
  if (report.is_object() && report.contains("artifacts")) {
    for (Json& artifact : report["artifacts"]) {
      if (artifact.contains("rows") && artifact["rows"].size() > kArtifactRows) {
        artifact["rows"].erase(artifact["rows"].begin() + kArtifactRows, artifact["rows"].end());
        artifact["truncated"] = true;
      }
    }
  }
  Json structured = {{"session_id", outcome->session_id},
                     {"trace_id", outcome->trace_id},
                     {"turn", outcome->turn},
                     {"status", outcome->status},
                     {"deterministic", outcome->deterministic},
                     {"report", std::move(report)}};
  std::string text = outcome->markdown.empty() ? agent::RenderMarkdown(outcome->report) : outcome->markdown;
  absl::StrAppend(&text, "\n\n---\nsession_id ", outcome->session_id,
                  " (ask follow-up questions with the ask tool)\n");
  if (outcome->status != "done") {
    ToolResult error = ToolResult::Error(
        absl::StrCat("the analysis ended with status ", outcome->status,
                     outcome->error.empty() ? "" : absl::StrCat(": ", outcome->error), "\n\n", text));
    error.structured = std::move(structured);
    return error;
  }
  return ToolResult::Structured(std::move(structured), std::move(text));
}

ToolResult ListSessions(TurnHost& host, const ToolCall& call) {
  auto sessions = host.Sessions(call.arguments.value("trace_id", ""), call.arguments.value("limit", 20));
  if (!sessions.ok()) return ToolResult::Error(std::string(sessions.status().message()));
  Json list = Json::array();
  std::string text = sessions->empty() ? "No sessions yet: analyze opens one.\n" : "";
  for (const SessionSummary& s : *sessions) {
    Json turns = Json::array();
    for (const agent::TurnInfo& t : s.turns) {
      turns.push_back({{"turn", t.index}, {"question", t.question}, {"status", t.status},
                       {"scene", t.scene}, {"mode", t.mode}});
    }
    list.push_back({{"session_id", s.info.id}, {"trace_id", s.info.trace_id}, {"title", s.info.title},
                    {"created_unix_ns", s.info.created_ns}, {"updated_unix_ns", s.info.updated_ns},
                    {"turns", std::move(turns)}});
    absl::StrAppend(&text, "session ", s.info.id, " on trace ", s.info.trace_id, " (", s.info.title, "), ",
                    s.turns.size(), " turn(s)\n");
    for (const agent::TurnInfo& t : s.turns) {
      absl::StrAppend(&text, "  ", t.index, ". [", t.status, t.scene.empty() ? "" : ", " + t.scene, "] ",
                      t.question, "\n");
    }
  }
  return ToolResult::Structured({{"sessions", std::move(list)}}, std::move(text));
}

}  // namespace

absl::Status AddAnalysisTools(ToolRegistry& registry, TurnHost* host, const std::vector<std::string>& scenes) {
  const Json scene_schema = {{"type", "string"},
                             {"enum", scenes},
                             {"description", "force this scene instead of classifying the question"}};
  const Json mode_schema = Json::parse(R"json({"type": "string", "enum": ["quick", "full", "auto"],
    "description": "quick: a short investigation with few tools; full: plan, hypotheses, every phase; auto: chosen from the question"})json");

  ToolDefinition analyze;
  analyze.name = "analyze";
  analyze.title = "Diagnose a trace";
  analyze.description =
      "Answer a performance question about a loaded trace (\"why does scrolling stutter?\", \"why is "
      "cold start slow?\", \"what caused this ANR?\") with a diagnosis that cites its evidence: the "
      "question is classified into a scene, that scene's strategy runs (skills, threshold-driven "
      "deep drills; an LLM agent investigates when one is configured), and the verifier checks every "
      "stated number against the cited evidence. Returns the report as Markdown and as structured "
      "content (findings by severity with evidence, causal chain, recommendations, limits) and a "
      "session_id for follow-ups with ask. Each step is reported as progress; it can be cancelled.";
  analyze.input_schema = {{"type", "object"},
                          {"properties",
                           {{"trace_id", {{"type", "string"}, {"minLength", 1}}},
                            {"question", {{"type", "string"}, {"description", "empty: a general overview"}}},
                            {"scene", scene_schema},
                            {"mode", mode_schema}}},
                          {"required", {"trace_id"}},
                          {"additionalProperties", false}};
  analyze.output_schema = OutcomeSchema();
  analyze.hints = {.read_only = false, .destructive = false, .idempotent = false, .open_world = false};
  analyze.handler = [host](const ToolCall& call) {
    TurnRequest r;
    r.trace_id = call.arguments["trace_id"].get<std::string>();
    r.question = call.arguments.value("question", "");
    r.mode = call.arguments.value("mode", "auto");
    r.scene = call.arguments.value("scene", "");
    return RunTurn(*host, std::move(r), call);
  };
  if (auto s = registry.Add(std::move(analyze)); !s.ok()) return s;

  ToolDefinition ask;
  ask.name = "ask";
  ask.title = "Ask a follow-up";
  ask.description =
      "A follow-up question in an analysis session (from analyze or list_sessions): the earlier "
      "questions and answers are the context, the trace is the session's. Returns a report like analyze.";
  ask.input_schema = {{"type", "object"},
                      {"properties",
                       {{"session_id", {{"type", "string"}, {"minLength", 1}}},
                        {"question", {{"type", "string"}, {"minLength", 1}}},
                        {"scene", scene_schema},
                        {"mode", mode_schema}}},
                      {"required", {"session_id", "question"}},
                      {"additionalProperties", false}};
  ask.output_schema = OutcomeSchema();
  ask.hints = {.read_only = false, .destructive = false, .idempotent = false, .open_world = false};
  ask.handler = [host](const ToolCall& call) {
    TurnRequest r;
    r.session_id = call.arguments["session_id"].get<std::string>();
    r.question = call.arguments["question"].get<std::string>();
    r.mode = call.arguments.value("mode", "auto");
    r.scene = call.arguments.value("scene", "");
    return RunTurn(*host, std::move(r), call);
  };
  if (auto s = registry.Add(std::move(ask)); !s.ok()) return s;

  ToolDefinition list;
  list.name = "list_sessions";
  list.title = "List analysis sessions";
  list.description = "Analysis sessions, newest first: their trace, and each turn's question, scene and status.";
  list.input_schema = Json::parse(R"json({
    "type": "object",
    "properties": {
      "trace_id": {"type": "string", "description": "only sessions on this trace"},
      "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 20}
    },
    "additionalProperties": false
  })json");
  list.output_schema = Json::parse(R"json({
    "type": "object",
    "properties": {"sessions": {"type": "array", "items": {"type": "object", "properties": {
      "session_id": {"type": "string"}, "trace_id": {"type": "string"}, "title": {"type": "string"},
      "turns": {"type": "array", "items": {"type": "object", "properties": {
        "turn": {"type": "integer"}, "question": {"type": "string"}, "status": {"type": "string"},
        "scene": {"type": "string"}}}}},
      "required": ["session_id", "trace_id", "turns"]}}},
    "required": ["sessions"]
  })json");
  list.handler = [host](const ToolCall& call) { return ListSessions(*host, call); };
  return registry.Add(std::move(list));
}

}  // namespace tw::mcp
