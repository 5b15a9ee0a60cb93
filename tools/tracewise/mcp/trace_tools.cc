#include "tools/tracewise/mcp/trace_tools.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/agent/context_probes.h"
#include "libs/common/units.h"
#include "libs/skills/result_json.h"
#include "libs/trace/query/result_format.h"

namespace tw::mcp {
namespace {

const Json& TraceInfoSchema() {
  static const Json kSchema = Json::parse(R"json({
    "type": "object",
    "properties": {
      "trace_id": {"type": "string", "description": "SHA-256 of the trace file; every other tool takes it"},
      "name": {"type": "string", "description": "file name"},
      "format": {"type": "string", "description": "perfetto_proto, systrace, chrome_json, ..."},
      "state": {"type": "string", "enum": ["stored", "loading", "loaded", "failed"]},
      "error": {"type": "string", "description": "why loading failed (state failed)"},
      "size_bytes": {"type": "integer"},
      "memory_bytes": {"type": "integer", "description": "held while loaded"},
      "start_ts": {"type": "integer", "description": "trace start, ns (trace clock)"},
      "end_ts": {"type": "integer", "description": "trace end, ns"},
      "duration_ns": {"type": "integer"},
      "load_ns": {"type": "integer", "description": "time the import took"},
      "context": {
        "type": "object",
        "description": "what the trace contains (the context probes an analysis starts from)",
        "properties": {
          "cpus": {"type": "integer"},
          "processes": {"type": "integer"},
          "threads": {"type": "integer"},
          "sched_slices": {"type": "integer"},
          "thread_states": {"type": "integer"},
          "slices": {"type": "integer"},
          "frames": {"type": "integer", "description": "actual frame timeline rows"},
          "cpu_freq_samples": {"type": "integer"},
          "log_lines": {"type": "integer"},
          "focus_app": {"type": "string", "description": "the app with the most frames, else the busiest app"},
          "focus_upid": {"type": "integer"},
          "refresh_hz": {"type": "number", "description": "display refresh rate; 0 = unknown"},
          "missing": {"type": "array", "items": {"type": "string"}, "description": "data sources the trace lacks"}
        }
      },
      "stats_with_errors": {
        "type": "array",
        "description": "import statistics reporting errors or data loss",
        "items": {
          "type": "object",
          "properties": {
            "name": {"type": "string"},
            "idx": {"type": ["integer", "null"]},
            "severity": {"type": "string"},
            "value": {"type": "integer"}
          }
        }
      }
    },
    "required": ["trace_id", "name", "state"]
  })json");
  return kSchema;
}

Json InfoJson(const ManagedTraceInfo& info) {
  Json j = {{"trace_id", info.id},          {"name", info.name},
            {"format", info.format},        {"state", TraceStateName(info.state)},
            {"size_bytes", info.size_bytes}, {"memory_bytes", info.memory_bytes},
            {"start_ts", info.start_ts},    {"end_ts", info.end_ts},
            {"duration_ns", info.end_ts - info.start_ts}, {"load_ns", info.load_ns}};
  if (!info.error.empty()) j["error"] = info.error;
  return j;
}

std::string InfoText(const ManagedTraceInfo& info) {
  return absl::StrCat("trace_id ", info.id, "\n- File: ", info.name, " (", info.format, ", ",
                      FormatBytes(info.size_bytes), "), ", TraceStateName(info.state),
                      info.state == TraceState::kLoaded
                          ? absl::StrCat(" in ", FormatDurationNs(info.load_ns), ", ",
                                         FormatBytes(info.memory_bytes), " in memory")
                          : "",
                      info.error.empty() ? "" : absl::StrCat(": ", info.error), "\n");
}

// Info plus what the trace holds (context probes, error stats). Probes that cannot run (a trace
// that failed to load) leave those parts out.
ToolResult Overview(TraceWorkspace& workspace, const ManagedTraceInfo& info, const std::string& lead,
                    const std::atomic<bool>* cancelled) {
  Json j = InfoJson(info);
  std::string text = lead + InfoText(info);
  if (info.state != TraceState::kFailed) {
    TraceSkills skills = workspace.SkillsFor(info.id, cancelled);
    if (auto context = agent::ProbeTraceContext(*skills.sql); context.ok()) {
      j["context"] = {{"cpus", context->cpus},
                      {"processes", context->processes},
                      {"threads", context->threads},
                      {"sched_slices", context->sched_slices},
                      {"thread_states", context->thread_states},
                      {"slices", context->slices},
                      {"frames", context->frames},
                      {"cpu_freq_samples", context->cpu_freq_samples},
                      {"log_lines", context->log_lines},
                      {"focus_app", context->focus_app},
                      {"focus_upid", context->focus_upid},
                      {"refresh_hz", context->refresh_hz},
                      {"missing", context->missing}};
      text += context->Describe();
    }
    auto stats = skills.sql->Query(
        "SELECT name, idx, severity, value FROM stats "
        "WHERE value != 0 AND severity IN ('error', 'data_loss') ORDER BY name, idx",
        {}, 50);
    if (stats.ok()) {
      j["stats_with_errors"] = Json::array();
      for (const auto& row : stats->rows) {
        j["stats_with_errors"].push_back({{"name", skills::SqlValueJson(row[0])},
                                          {"idx", skills::SqlValueJson(row[1])},
                                          {"severity", skills::SqlValueJson(row[2])},
                                          {"value", skills::SqlValueJson(row[3])}});
        absl::StrAppend(&text, "- Import ", row[2].string_value, ": ", row[0].string_value,
                        row[1].is_null() ? "" : absl::StrCat("[", row[1].int_value, "]"), " = ",
                        row[3].int_value, "\n");
      }
    }
  }
  return ToolResult::Structured(std::move(j), std::move(text));
}

ToolResult LoadTrace(TraceWorkspace& workspace, const ToolCall& call) {
  const std::string path = call.arguments["path"].get<std::string>();
  call.Progress(1, 3, "reading " + path);
  auto info = workspace.Load(path);
  if (!info.ok()) {
    return ToolResult::Error(absl::StrCat("cannot load ", path, ": ", info.status().message()));
  }
  if (info->state == TraceState::kFailed) {
    return ToolResult::Error(absl::StrCat("cannot load ", path, ": ", info->error));
  }
  call.Progress(2, 3, "loaded; probing what the trace contains");
  ToolResult result = Overview(workspace, *info, "Loaded. Pass this trace_id to the other tools.\n",
                               call.cancelled);
  call.Progress(3, 3, "done");
  return result;
}

ToolResult TraceInfo(TraceWorkspace& workspace, const ToolCall& call) {
  auto info = workspace.Info(call.arguments["trace_id"].get<std::string>());
  if (!info.ok()) return ToolResult::Error(std::string(info.status().message()));
  return Overview(workspace, *info, "", call.cancelled);
}

ToolResult ListTraces(TraceWorkspace& workspace, const ToolCall& call) {
  auto traces = workspace.List();
  if (!traces.ok()) return ToolResult::Error(std::string(traces.status().message()));
  Json list = Json::array();
  std::string text = traces->empty() ? "No traces yet: load one with load_trace.\n" : "";
  for (const ManagedTraceInfo& info : *traces) {
    list.push_back(InfoJson(info));
    text += InfoText(info);
  }
  return ToolResult::Structured({{"traces", std::move(list)}}, std::move(text));
}

// Bound `:name` parameters of a query from JSON scalars.
std::vector<std::pair<std::string, SqlValue>> QueryParams(const Json& params) {
  std::vector<std::pair<std::string, SqlValue>> out;
  if (!params.is_object()) return out;
  for (const auto& [name, v] : params.items()) {
    SqlValue value;
    if (v.is_number_integer()) {
      value = SqlValue::Int(v.get<int64_t>());
    } else if (v.is_number()) {
      value = SqlValue::Double(v.get<double>());
    } else if (v.is_boolean()) {
      value = SqlValue::Int(v.get<bool>() ? 1 : 0);
    } else if (v.is_string()) {
      value = SqlValue::String(v.get<std::string>());
    }
    out.emplace_back(name, std::move(value));
  }
  return out;
}

size_t CellBytes(const SqlValue& v) {
  return v.type == SqlValue::Type::kString ? v.string_value.size() + 2 : 12;
}

ToolResult Query(TraceWorkspace& workspace, const QueryLimits& limits, const ToolCall& call) {
  const Json& args = call.arguments;
  BackendQuery query;
  query.trace_id = args["trace_id"].get<std::string>();
  query.sql = args["sql"].get<std::string>();
  query.max_rows = args.value("max_rows", limits.default_rows);
  query.timeout = absl::Milliseconds(args.value("timeout_ms", limits.default_timeout_ms));
  query.params = QueryParams(args.value("params", Json()));
  query.cancelled = call.cancelled;
  auto result = workspace.queries().Query(query);
  if (!result.ok()) {
    const std::string message(result.status().message());
    switch (result.status().code()) {
      case absl::StatusCode::kInvalidArgument:
        return ToolResult::Error("SQL error: " + message);
      case absl::StatusCode::kPermissionDenied:
        return ToolResult::Error("refused: traces are read-only; only SELECT (and INCLUDE PERFETTO MODULE) run: " + message);
      case absl::StatusCode::kDeadlineExceeded:
        return ToolResult::Error(absl::StrCat("the query ran past its timeout of ",
                                              absl::ToInt64Milliseconds(query.timeout),
                                              " ms; narrow it (a time range, LIMIT) or raise timeout_ms"));
      case absl::StatusCode::kCancelled:
        return ToolResult::Error("the query was cancelled");
      default:
        return ToolResult::Error(message);
    }
  }
  // The byte cap: whole rows until the estimated size passes it.
  size_t bytes = 0;
  size_t keep = 0;
  for (; keep < result->rows.size(); ++keep) {
    for (const SqlValue& v : result->rows[keep]) bytes += CellBytes(v);
    if (static_cast<int64_t>(bytes) > limits.max_result_bytes) break;
  }
  if (keep < result->rows.size()) {
    result->rows.resize(keep);
    result->truncated = true;
  }
  Json rows = Json::array();
  for (const auto& row : result->rows) {
    Json cells = Json::array();
    for (const SqlValue& v : row) cells.push_back(skills::SqlValueJson(v));
    rows.push_back(std::move(cells));
  }
  Json j = {{"columns", result->columns},
            {"rows", std::move(rows)},
            {"row_count", result->rows.size()},
            {"truncated", result->truncated},
            {"elapsed_ns", result->elapsed_ns}};
  std::string text = FormatTable(*result, 200);
  if (result->truncated) {
    absl::StrAppend(&text, "(cut at ", result->rows.size(),
                    " rows: raise max_rows, up to ", limits.max_rows, ", or aggregate in SQL)\n");
  }
  return ToolResult::Structured(std::move(j), std::move(text));
}

}  // namespace

absl::Status AddTraceTools(ToolRegistry& registry, TraceWorkspace* workspace, const QueryLimits& limits) {
  ToolDefinition load;
  load.name = "load_trace";
  load.title = "Load a trace";
  load.description =
      "Load a performance trace file from this machine: Perfetto protobuf (plain or gzip), "
      "systrace / ftrace text or HTML, Chrome JSON. Returns the trace_id every other tool takes "
      "and an overview: time bounds, processes and threads, which data sources the trace has "
      "(scheduling, thread states, slices, frames, CPU frequency, logs), the likely focus app, CPU "
      "count and display refresh rate. Loading the same file again returns the same trace_id.";
  load.input_schema = Json::parse(R"json({
    "type": "object",
    "properties": {"path": {"type": "string", "minLength": 1, "description": "path of the trace file on this machine"}},
    "required": ["path"],
    "additionalProperties": false
  })json");
  load.output_schema = TraceInfoSchema();
  load.hints = {.read_only = false, .destructive = false, .idempotent = true, .open_world = false};
  load.handler = [workspace](const ToolCall& call) { return LoadTrace(*workspace, call); };
  if (auto s = registry.Add(std::move(load)); !s.ok()) return s;

  ToolDefinition info;
  info.name = "trace_info";
  info.title = "Describe a loaded trace";
  info.description =
      "What a loaded trace is and contains: file, format, size, time bounds, import time and "
      "memory, processes and threads, data sources present or missing, focus app, refresh rate, "
      "and import statistics that report errors or data loss.";
  info.input_schema = Json::parse(R"json({
    "type": "object",
    "properties": {"trace_id": {"type": "string", "minLength": 1}},
    "required": ["trace_id"],
    "additionalProperties": false
  })json");
  info.output_schema = TraceInfoSchema();
  info.handler = [workspace](const ToolCall& call) { return TraceInfo(*workspace, call); };
  if (auto s = registry.Add(std::move(info)); !s.ok()) return s;

  ToolDefinition list;
  list.name = "list_traces";
  list.title = "List loaded traces";
  list.description = "The traces this server holds, with their trace_id, file name, state and time bounds.";
  list.input_schema = Json::parse(R"json({"type": "object", "properties": {}, "additionalProperties": false})json");
  list.output_schema = {{"type", "object"},
                        {"properties", {{"traces", {{"type", "array"}, {"items", TraceInfoSchema()}}}}},
                        {"required", {"traces"}}};
  list.handler = [workspace](const ToolCall& call) { return ListTraces(*workspace, call); };
  if (auto s = registry.Add(std::move(list)); !s.ok()) return s;

  ToolDefinition query;
  query.name = "query";
  query.title = "Run SQL on a trace";
  query.description = absl::StrCat(
      "Run read-only SQL (SQLite dialect) on a loaded trace. The tables and views are Perfetto "
      "trace_processor's (slice, thread, process, thread_state, sched, counter, "
      "actual_frame_timeline_slice, android_logs, ...; `INCLUDE PERFETTO MODULE android.frames."
      "timeline;` and other stdlib modules work); the tracewise://schema resource lists them with "
      "their columns. Timestamps and durations are int64 nanoseconds. Several statements may be "
      "given; the last one's rows are returned. Writes are refused. At most max_rows rows (default ",
      limits.default_rows, ", up to ", limits.max_rows, ") and about ",
      FormatBytes(limits.max_result_bytes), " come back; `truncated` says when a limit cut the result.");
  query.input_schema = Json::parse(absl::StrFormat(R"json({
    "type": "object",
    "properties": {
      "trace_id": {"type": "string", "minLength": 1},
      "sql": {"type": "string", "minLength": 1, "maxLength": 1000000},
      "max_rows": {"type": "integer", "minimum": 1, "maximum": %d, "default": %d},
      "timeout_ms": {"type": "integer", "minimum": 1, "maximum": %d, "default": %d},
      "params": {
        "type": "object",
        "description": "values bound to :name parameters in the SQL (never spliced into it)",
        "additionalProperties": {"type": ["string", "number", "boolean", "null"]}
      }
    },
    "required": ["trace_id", "sql"],
    "additionalProperties": false
  })json", limits.max_rows, limits.default_rows, limits.max_timeout_ms, limits.default_timeout_ms));
  query.output_schema = Json::parse(R"json({
    "type": "object",
    "properties": {
      "columns": {"type": "array", "items": {"type": "string"}},
      "rows": {"type": "array", "items": {"type": "array", "items": {"type": ["integer", "number", "string", "null"]}}},
      "row_count": {"type": "integer"},
      "truncated": {"type": "boolean"},
      "elapsed_ns": {"type": "integer"}
    },
    "required": ["columns", "rows", "row_count", "truncated"]
  })json");
  query.handler = [workspace, limits](const ToolCall& call) { return Query(*workspace, limits, call); };
  return registry.Add(std::move(query));
}

}  // namespace tw::mcp
