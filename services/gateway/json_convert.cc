#include "services/gateway/json_convert.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace tw::gateway {
namespace pb = tracewise::v1;
using nlohmann::json;

namespace {
int64_t UnixMs(int64_t unix_ns) { return unix_ns / 1'000'000; }
}  // namespace

json ValueJson(const pb::Value& v) {
  switch (v.kind_case()) {
    case pb::Value::kIntValue:
      return v.int_value();
    case pb::Value::kDoubleValue:
      return v.double_value();
    case pb::Value::kStringValue:
      return v.string_value();
    case pb::Value::kBoolValue:
      return v.bool_value();
    default:
      return nullptr;
  }
}

absl::StatusOr<pb::Value> ValueFromJson(const json& j) {
  pb::Value v;
  if (j.is_null()) return v;
  if (j.is_boolean()) {
    v.set_bool_value(j.get<bool>());
  } else if (j.is_number_integer()) {
    v.set_int_value(j.get<int64_t>());
  } else if (j.is_number()) {
    v.set_double_value(j.get<double>());
  } else if (j.is_string()) {
    v.set_string_value(j.get<std::string>());
  } else {
    return absl::InvalidArgumentError(
        "parameter values must be numbers, strings, booleans or null");
  }
  return v;
}

const char* ColumnTypeName(pb::ColumnType type) {
  switch (type) {
    case pb::COLUMN_TYPE_STRING:
      return "string";
    case pb::COLUMN_TYPE_NUMBER:
      return "number";
    case pb::COLUMN_TYPE_BOOL:
      return "bool";
    case pb::COLUMN_TYPE_DURATION_NS:
      return "duration_ns";
    case pb::COLUMN_TYPE_TIMESTAMP_NS:
      return "timestamp_ns";
    case pb::COLUMN_TYPE_PERCENT:
      return "percent";
    case pb::COLUMN_TYPE_BYTES:
      return "bytes";
    case pb::COLUMN_TYPE_ENUM:
      return "enum";
    default:
      return "";
  }
}

json EnvelopeJson(const pb::DataEnvelope& e) {
  json columns = json::array();
  for (const auto& c : e.columns()) {
    columns.push_back({{"name", c.name()}, {"type", ColumnTypeName(c.type())}, {"unit", c.unit()}});
  }
  json rows = json::array();
  for (const auto& r : e.rows()) {
    json cells = json::array();
    for (const auto& v : r.values()) cells.push_back(ValueJson(v));
    rows.push_back(std::move(cells));
  }
  json params = json::object();
  for (const auto& p : e.provenance().parameters()) params[p.name()] = ValueJson(p.value());
  return {{"id", e.artifact_id()},
          {"title", e.title()},
          {"level", e.level()},
          {"columns", std::move(columns)},
          {"rows", std::move(rows)},
          {"total_rows", e.rows_size()},
          {"truncated", e.truncated()},
          {"skill", e.provenance().skill()},
          {"step", e.provenance().step()},
          {"sql", e.provenance().sql()},
          {"parameters", std::move(params)},
          {"elapsed_ns", e.provenance().elapsed_ns()}};
}

namespace {
const char* SeverityName(pb::Severity s) {
  switch (s) {
    case pb::SEVERITY_CRITICAL:
      return "critical";
    case pb::SEVERITY_HIGH:
      return "high";
    case pb::SEVERITY_MEDIUM:
      return "medium";
    case pb::SEVERITY_LOW:
      return "low";
    case pb::SEVERITY_INFO:
      return "info";
    default:
      return "unspecified";
  }
}
}  // namespace

json FindingJson(const pb::Finding& f) {
  json evidence = json::array();
  for (const auto& e : f.evidence()) evidence.push_back(e.artifact_id());
  return {{"id", f.id()},
          {"severity", SeverityName(f.severity())},
          {"title", f.title()},
          {"description", f.description()},
          {"evidence", evidence},
          {"suggestions", std::vector<std::string>(f.suggestions().begin(), f.suggestions().end())},
          {"source", f.source()}};
}

const char* TraceStateName(pb::TraceState state) {
  switch (state) {
    case pb::TRACE_STATE_STORED:
      return "stored";
    case pb::TRACE_STATE_LOADING:
      return "loading";
    case pb::TRACE_STATE_LOADED:
      return "loaded";
    case pb::TRACE_STATE_FAILED:
      return "failed";
    default:
      return "unknown";
  }
}

json TraceInfoJson(const pb::TraceInfo& t) {
  json j = {{"trace_id", t.trace_id()},
            {"sha256", t.trace_id()},
            {"name", t.name()},
            {"state", TraceStateName(t.state())},
            {"size_bytes", t.size_bytes()},
            {"memory_bytes", t.memory_bytes()},
            {"last_used_unix_ms", UnixMs(t.last_used_unix_ns())},
            {"format", t.format()},
            {"start_ts", t.start_ts()},
            {"end_ts", t.end_ts()},
            {"duration_ns", t.end_ts() > t.start_ts() ? t.end_ts() - t.start_ts() : 0},
            {"load_ns", t.load_ns()}};
  if (!t.error().empty()) j["error"] = t.error();
  return j;
}

json SessionJson(const pb::Session& s, bool with_reports) {
  json turns = json::array();
  for (const auto& t : s.turns()) {
    json turn = {{"index", t.index()},
                 {"question", t.question()},
                 {"mode", t.mode()},
                 {"scene", t.scene()},
                 {"status", t.status()},
                 {"started_unix_ms", UnixMs(t.started_unix_ns())},
                 {"finished_unix_ms", UnixMs(t.finished_unix_ns())},
                 {"reference_trace_id", t.reference_trace_id()},
                 {"has_report", !t.report_json().empty() && t.report_json() != "{}"}};
    if (t.pending_client_tools_size() > 0) {
      json pending = json::array();
      for (const auto& r : t.pending_client_tools()) {
        json args =
            json::parse(r.arguments_json().empty() ? "{}" : r.arguments_json(), nullptr, false);
        pending.push_back({{"request_id", r.request_id()},
                           {"tool", r.tool()},
                           {"arguments", args.is_discarded() ? json(r.arguments_json()) : args},
                           {"deadline_unix_ms", UnixMs(r.deadline_unix_ns())}});
      }
      turn["pending_client_tools"] = std::move(pending);
    }
    if (with_reports && !t.report_json().empty()) {
      turn["report"] = json::parse(t.report_json(), nullptr, false);
    }
    turns.push_back(std::move(turn));
  }
  return {{"id", s.id()},
          {"trace_id", s.trace_id()},
          {"title", s.title()},
          {"created_unix_ms", UnixMs(s.created_unix_ns())},
          {"updated_unix_ms", UnixMs(s.updated_unix_ns())},
          {"last_seq", s.last_seq()},
          {"busy", s.busy()},
          {"usage",
           {{"input_tokens", s.input_tokens()},
            {"output_tokens", s.output_tokens()},
            {"cached_tokens", s.cached_tokens()},
            {"cost_micro_usd", s.cost_micro_usd()}}},
          {"turns", std::move(turns)}};
}

json SkillSummaryJson(const pb::SkillSummary& s) {
  return {{"name", s.name()},
          {"version", s.version()},
          {"category", s.category()},
          {"description", s.description()},
          {"tags", std::vector<std::string>(s.tags().begin(), s.tags().end())}};
}

json SkillDescriptionJson(const pb::SkillDescription& d) {
  json inputs = json::array();
  for (const auto& i : d.inputs()) {
    inputs.push_back({{"name", i.name()},
                      {"type", i.type()},
                      {"required", i.required()},
                      {"default", i.default_value()},
                      {"description", i.description()},
                      {"values", std::vector<std::string>(i.values().begin(), i.values().end())}});
  }
  json j = SkillSummaryJson(d.summary());
  j["inputs"] = std::move(inputs);
  j["required_tables"] =
      std::vector<std::string>(d.required_tables().begin(), d.required_tables().end());
  j["required_modules"] =
      std::vector<std::string>(d.required_modules().begin(), d.required_modules().end());
  j["steps"] = std::vector<std::string>(d.steps().begin(), d.steps().end());
  return j;
}

namespace {
absl::StatusOr<int64_t> Int64Field(const json& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end() || !it->is_number_integer()) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.selection.", name, " must be an integer (ns)"));
  }
  return it->get<int64_t>();
}

absl::StatusOr<std::string> StringField(const json& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end() || it->is_null()) return std::string();
  if (!it->is_string())
    return absl::InvalidArgumentError(absl::StrCat("options.", name, " must be a string"));
  return it->get<std::string>();
}
}  // namespace

absl::Status AskOptionsFromJson(const json& j, pb::AskOptions* out) {
  if (j.is_null()) return absl::OkStatus();
  if (!j.is_object()) return absl::InvalidArgumentError("options must be an object");
  auto mode = StringField(j, "mode");
  if (!mode.ok()) return mode.status();
  out->set_mode(*mode);
  auto scene = StringField(j, "scene");
  if (!scene.ok()) return scene.status();
  out->set_scene(*scene);
  auto reference = StringField(j, "reference_trace_id");
  if (!reference.ok()) return reference.status();
  out->set_reference_trace_id(*reference);
  if (const auto it = j.find("selection"); it != j.end() && !it->is_null()) {
    const json& sel = *it;
    if (!sel.is_object()) return absl::InvalidArgumentError("options.selection must be an object");
    if (sel.contains("slice_id")) {
      auto id = Int64Field(sel, "slice_id");
      if (!id.ok()) return id.status();
      out->mutable_selection()->set_slice_id(*id);
    } else {
      auto start = Int64Field(sel, "start_ns");
      if (!start.ok()) return start.status();
      auto end = Int64Field(sel, "end_ns");
      if (!end.ok()) return end.status();
      out->mutable_selection()->mutable_time_range()->set_start_ns(*start);
      out->mutable_selection()->mutable_time_range()->set_end_ns(*end);
    }
  }
  if (const auto it = j.find("client_tools"); it != j.end() && !it->is_null()) {
    if (!it->is_array())
      return absl::InvalidArgumentError("options.client_tools must be an array of names");
    for (const json& name : *it) {
      if (!name.is_string())
        return absl::InvalidArgumentError("options.client_tools must be an array of names");
      // Unknown names are the orchestrator's to refuse (INVALID_ARGUMENT, naming the known ones).
      out->add_client_tools(name.get<std::string>());
    }
  }
  return absl::OkStatus();
}

absl::Status ToolResultFromJson(const json& j, pb::SubmitToolResultRequest* out) {
  if (!j.is_object()) return absl::InvalidArgumentError("the body must be a JSON object");
  const auto id = j.find("request_id");
  if (id == j.end() || !id->is_string() || id->get<std::string>().empty()) {
    return absl::InvalidArgumentError(
        "request_id (the client_tool_request event's, a string) is required");
  }
  out->set_request_id(id->get<std::string>());
  auto present = [&](const char* name) {
    const auto it = j.find(name);
    return it != j.end() && !it->is_null();
  };
  const char* image_key = present("image_base64") ? "image_base64" : "image_png_base64";
  const int outcomes = int{present("result")} + int{present("error")} + int{present(image_key)};
  if (outcomes != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "give exactly one of result (a JSON value), image_base64 (+ mime_type) or error (a "
        "string); this body has ",
        outcomes));
  }
  if (present("result")) {
    out->set_result_json(j["result"].dump());
  } else if (present("error")) {
    if (!j["error"].is_string()) return absl::InvalidArgumentError("error must be a string");
    out->set_error(j["error"].get<std::string>());
  } else {
    if (!j[image_key].is_string()) {
      return absl::InvalidArgumentError(absl::StrCat(image_key, " must be a base64 string"));
    }
    std::string data;
    if (!absl::Base64Unescape(j[image_key].get<std::string>(), &data)) {
      return absl::InvalidArgumentError(absl::StrCat(image_key, " is not valid base64"));
    }
    std::string mime = "image/png";
    if (present("mime_type")) {
      if (!j["mime_type"].is_string())
        return absl::InvalidArgumentError("mime_type must be a string");
      mime = j["mime_type"].get<std::string>();
    }
    out->mutable_image()->set_data(std::move(data));
    out->mutable_image()->set_mime_type(std::move(mime));
  }
  return absl::OkStatus();
}

}  // namespace tw::gateway
