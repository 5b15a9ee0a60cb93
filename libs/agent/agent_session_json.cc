#include "libs/agent/agent_session_json.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "libs/agent/tool_support.h"

namespace tw::agent {
namespace {

using nlohmann::json;

// SqlValue as a tagged pair, so ints, doubles and strings come back with their type.
json ValueJson(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kInt: return json::array({"i", v.int_value});
    case SqlValue::Type::kDouble: return json::array({"d", v.double_value});
    case SqlValue::Type::kString: return json::array({"s", v.string_value});
    case SqlValue::Type::kNull: break;
  }
  return nullptr;
}

SqlValue ValueFrom(const json& j) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_string()) return SqlValue::Null();
  const std::string tag = j[0].get<std::string>();
  if (tag == "i" && j[1].is_number_integer()) return SqlValue::Int(j[1].get<int64_t>());
  if (tag == "d" && j[1].is_number()) return SqlValue::Double(j[1].get<double>());
  if (tag == "s" && j[1].is_string()) return SqlValue::String(j[1].get<std::string>());
  return SqlValue::Null();
}

json NamedValues(const std::vector<std::pair<std::string, SqlValue>>& values) {
  json out = json::array();
  for (const auto& [name, value] : values) out.push_back({name, ValueJson(value)});
  return out;
}

std::vector<std::pair<std::string, SqlValue>> NamedValuesFrom(const json& j) {
  std::vector<std::pair<std::string, SqlValue>> out;
  if (!j.is_array()) return out;
  for (const json& e : j) {
    if (e.is_array() && e.size() == 2 && e[0].is_string()) out.emplace_back(e[0].get<std::string>(), ValueFrom(e[1]));
  }
  return out;
}

template <typename T>
T Get(const json& j, const char* key, T fallback) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  return it->get<T>();
}

std::vector<std::string> Strings(const json& j, const char* key) { return GetStringListArg(j, key); }

skills::StepStatus StepStatusFrom(const std::string& name) {
  using skills::StepStatus;
  for (StepStatus s : {StepStatus::kOk, StepStatus::kSkipped, StepStatus::kFailed, StepStatus::kNotSupported}) {
    if (name == skills::StepStatusName(s)) return s;
  }
  return StepStatus::kFailed;
}

skills::Severity SeverityFrom(const std::string& name) {
  for (skills::Severity s : {skills::Severity::kCritical, skills::Severity::kWarning, skills::Severity::kInfo}) {
    if (name == skills::SeverityName(s)) return s;
  }
  return skills::Severity::kInfo;
}

json FindingJson(const skills::Finding& f) {
  return {{"skill", f.skill}, {"step", f.step}, {"rule", f.rule},
          {"severity", skills::SeverityName(f.severity)}, {"title", f.title},
          {"description", f.description}, {"suggestions", f.suggestions},
          {"evidence_step", f.evidence_step}, {"evidence_artifact_id", f.evidence_artifact_id},
          {"evidence_row", f.evidence_row}, {"evidence_fields", NamedValues(f.evidence_fields)}};
}

skills::Finding FindingFrom(const json& j) {
  skills::Finding f;
  f.skill = Get<std::string>(j, "skill", "");
  f.step = Get<std::string>(j, "step", "");
  f.rule = Get<std::string>(j, "rule", "");
  f.severity = SeverityFrom(Get<std::string>(j, "severity", ""));
  f.title = Get<std::string>(j, "title", "");
  f.description = Get<std::string>(j, "description", "");
  f.suggestions = Strings(j, "suggestions");
  f.evidence_step = Get<std::string>(j, "evidence_step", "");
  f.evidence_artifact_id = Get<std::string>(j, "evidence_artifact_id", "");
  f.evidence_row = Get<int64_t>(j, "evidence_row", -1);
  if (j.contains("evidence_fields")) f.evidence_fields = NamedValuesFrom(j["evidence_fields"]);
  return f;
}

json PhaseJson(const PlannedPhase& p) {
  return {{"id", p.id}, {"goal", p.goal}, {"skills", p.skills}, {"status", p.status}, {"summary", p.summary}};
}

PlannedPhase PhaseFrom(const json& j) {
  PlannedPhase p;
  p.id = Get<std::string>(j, "id", "");
  p.goal = Get<std::string>(j, "goal", "");
  p.skills = Strings(j, "skills");
  p.status = Get<std::string>(j, "status", "pending");
  p.summary = Get<std::string>(j, "summary", "");
  return p;
}

const char* RoleName(llm::Role role) {
  switch (role) {
    case llm::Role::kUser: return "user";
    case llm::Role::kAssistant: return "assistant";
    case llm::Role::kTool: return "tool";
  }
  return "user";
}

}  // namespace

json StepResultToJson(const skills::StepResult& r) {
  json columns = json::array();
  for (const auto& c : r.columns) columns.push_back({c.name, skills::ColumnTypeName(c.type), c.unit});
  json rows = json::array();
  for (const auto& row : r.rows) {
    json cells = json::array();
    for (const SqlValue& v : row) cells.push_back(ValueJson(v));
    rows.push_back(std::move(cells));
  }
  return {{"skill", r.skill}, {"step", r.step}, {"kind", r.kind},
          {"status", skills::StepStatusName(r.status)}, {"message", r.message},
          {"columns", std::move(columns)}, {"rows", std::move(rows)}, {"truncated", r.truncated},
          {"sql", r.sql}, {"parameters", NamedValues(r.parameters)}, {"elapsed_ns", r.elapsed_ns},
          {"artifact_id", r.artifact_id}, {"title", r.title}, {"level", r.level}};
}

absl::StatusOr<std::shared_ptr<const skills::StepResult>> StepResultFromJson(const json& j) {
  if (!j.is_object()) return absl::InvalidArgumentError("an artifact must be a JSON object");
  auto r = std::make_shared<skills::StepResult>();
  try {
  r->skill = Get<std::string>(j, "skill", "");
  r->step = Get<std::string>(j, "step", "");
  r->kind = Get<std::string>(j, "kind", "");
  r->status = StepStatusFrom(Get<std::string>(j, "status", "ok"));
  r->message = Get<std::string>(j, "message", "");
  for (const json& c : j.value("columns", json::array())) {
    if (!c.is_array() || c.size() != 3) return absl::InvalidArgumentError("malformed artifact column");
    skills::ResultColumn column;
    column.name = c[0].get<std::string>();
    const std::string type = c[1].get<std::string>();
    if (!skills::ParseColumnType(type, &column.type)) column.type = skills::ColumnType::kString;
    column.unit = c[2].get<std::string>();
    r->columns.push_back(std::move(column));
  }
  for (const json& row : j.value("rows", json::array())) {
    std::vector<SqlValue> cells;
    cells.reserve(row.size());
    for (const json& cell : row) cells.push_back(ValueFrom(cell));
    r->rows.push_back(std::move(cells));
  }
  r->truncated = Get<bool>(j, "truncated", false);
  r->sql = Get<std::string>(j, "sql", "");
  if (j.contains("parameters")) r->parameters = NamedValuesFrom(j["parameters"]);
  r->elapsed_ns = Get<int64_t>(j, "elapsed_ns", 0);
  r->artifact_id = Get<std::string>(j, "artifact_id", "");
  r->title = Get<std::string>(j, "title", "");
  r->level = Get<std::string>(j, "level", "");
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("malformed artifact: ", e.what()));
  }
  return std::shared_ptr<const skills::StepResult>(std::move(r));
}

json MessagesToJson(const std::vector<llm::Message>& messages) {
  json out = json::array();
  for (const llm::Message& m : messages) {
    json e = {{"role", RoleName(m.role)}, {"text", m.text}};
    if (!m.tool_calls.empty()) {
      json calls = json::array();
      for (const llm::ToolCall& c : m.tool_calls) calls.push_back({c.id, c.name, c.arguments});
      e["tool_calls"] = std::move(calls);
    }
    if (m.role == llm::Role::kTool) {
      e["tool_call_id"] = m.tool_call_id;
      e["tool_error"] = m.tool_error;
    }
    if (!m.images.empty()) {
      json images = json::array();
      for (const llm::ImageContent& i : m.images) images.push_back({i.mime_type, absl::Base64Escape(i.data)});
      e["images"] = std::move(images);
    }
    out.push_back(std::move(e));
  }
  return out;
}

absl::StatusOr<std::vector<llm::Message>> MessagesFromJson(const json& j) {
  if (!j.is_array()) return absl::InvalidArgumentError("a conversation must be a JSON array");
  std::vector<llm::Message> out;
  try {
  for (const json& e : j) {
    llm::Message m;
    const std::string role = Get<std::string>(e, "role", "");
    if (role == "user") {
      m.role = llm::Role::kUser;
    } else if (role == "assistant") {
      m.role = llm::Role::kAssistant;
    } else if (role == "tool") {
      m.role = llm::Role::kTool;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown message role '", role, "'"));
    }
    m.text = Get<std::string>(e, "text", "");
    for (const json& c : e.value("tool_calls", json::array())) {
      m.tool_calls.push_back({c[0].get<std::string>(), c[1].get<std::string>(), c[2].get<std::string>()});
    }
    m.tool_call_id = Get<std::string>(e, "tool_call_id", "");
    m.tool_error = Get<bool>(e, "tool_error", false);
    for (const json& i : e.value("images", json::array())) {
      llm::ImageContent image;
      image.mime_type = i[0].get<std::string>();
      if (!absl::Base64Unescape(i[1].get<std::string>(), &image.data)) {
        return absl::InvalidArgumentError("an image of the conversation is not valid base64");
      }
      m.images.push_back(std::move(image));
    }
    out.push_back(std::move(m));
  }
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("malformed conversation: ", e.what()));
  }
  return out;
}

json UsageToJson(const llm::Usage& u) {
  return {{"input_tokens", u.input_tokens},
          {"output_tokens", u.output_tokens},
          {"cached_input_tokens", u.cached_input_tokens},
          {"cache_creation_tokens", u.cache_creation_tokens}};
}

llm::Usage UsageFromJson(const json& j) {
  llm::Usage u;
  u.input_tokens = Get<int64_t>(j, "input_tokens", 0);
  u.output_tokens = Get<int64_t>(j, "output_tokens", 0);
  u.cached_input_tokens = Get<int64_t>(j, "cached_input_tokens", 0);
  u.cache_creation_tokens = Get<int64_t>(j, "cache_creation_tokens", 0);
  return u;
}

json AgentSessionToJson(const AgentSession& s) {
  const AnalysisPlan::State plan = s.plan.state();
  json phases = json::array();
  for (const PlannedPhase& p : plan.phases) phases.push_back(PhaseJson(p));
  json hypotheses = json::array();
  for (const AgentHypothesis& h : s.hypotheses.all()) {
    hypotheses.push_back({{"id", h.id}, {"statement", h.statement}, {"status", h.status},
                          {"evidence", h.evidence}, {"resolution", h.resolution}});
  }
  json artifacts = json::array();
  for (const auto& [id, result] : s.artifacts) artifacts.push_back(StepResultToJson(*result));
  json findings = json::array();
  for (const skills::Finding& f : s.skill_findings) findings.push_back(FindingJson(f));
  json calls = json::array();
  for (const ToolCallRecord& c : s.tool_calls) {
    calls.push_back({{"tool", c.tool}, {"arguments", c.arguments}, {"ok", c.ok}, {"error", c.error},
                     {"skill", c.skill}, {"artifacts", c.artifacts}, {"elapsed_ns", c.elapsed_ns}});
  }
  return {{"trace", s.trace},
          {"scene", s.strategy != nullptr ? s.strategy->scene : ""},
          {"mode", AnalysisModeName(s.mode)},
          {"plan", {{"accepted", plan.accepted}, {"phases", phases}, {"aspects", plan.aspects},
                    {"history", plan.history}, {"revisions", plan.revisions}}},
          {"hypotheses", hypotheses},
          {"artifacts", artifacts},
          {"turn_artifacts", s.turn_artifacts},
          {"skill_findings", findings},
          {"notes", s.notes},
          {"uncertainties", s.uncertainties},
          {"tool_calls", calls},
          {"data_results", s.data_results},
          {"consecutive_failures", s.consecutive_failures},
          {"next_sql_artifact", s.next_sql_artifact},
          {"next_comparison_artifact", s.next_comparison_artifact}};
}

absl::StatusOr<AgentSession> AgentSessionFromJson(const json& j,
                                                  const strategy::StrategyLibrary& strategies) {
  if (!j.is_object()) return absl::InvalidArgumentError("an agent session must be a JSON object");
  AgentSession s;
  try {
    s.trace = Get<std::string>(j, "trace", "");
    const std::string scene = Get<std::string>(j, "scene", "");
    s.strategy = scene.empty() ? nullptr : strategies.Find(scene);
    s.mode = Get<std::string>(j, "mode", "full") == "quick" ? AnalysisMode::kQuick : AnalysisMode::kFull;
    const json& plan = j.at("plan");
    AnalysisPlan::State state;
    state.accepted = Get<bool>(plan, "accepted", false);
    for (const json& p : plan.value("phases", json::array())) state.phases.push_back(PhaseFrom(p));
    state.aspects = Strings(plan, "aspects");
    state.history = Strings(plan, "history");
    state.revisions = Get<int>(plan, "revisions", 0);
    s.plan = AnalysisPlan::FromState(std::move(state));
    std::vector<AgentHypothesis> hypotheses;
    for (const json& h : j.value("hypotheses", json::array())) {
      hypotheses.push_back({Get<std::string>(h, "id", ""), Get<std::string>(h, "statement", ""),
                            Get<std::string>(h, "status", "open"), Strings(h, "evidence"),
                            Get<std::string>(h, "resolution", "")});
    }
    s.hypotheses = HypothesisBoard::FromList(std::move(hypotheses));
    for (const json& a : j.value("artifacts", json::array())) {
      auto result = StepResultFromJson(a);
      if (!result.ok()) return result.status();
      s.artifacts[(*result)->artifact_id] = *result;
    }
    for (const std::string& id : Strings(j, "turn_artifacts")) s.turn_artifacts.insert(id);
    for (const json& f : j.value("skill_findings", json::array())) s.skill_findings.push_back(FindingFrom(f));
    s.notes = Strings(j, "notes");
    s.uncertainties = Strings(j, "uncertainties");
    for (const json& c : j.value("tool_calls", json::array())) {
      ToolCallRecord r;
      r.tool = Get<std::string>(c, "tool", "");
      r.arguments = Get<std::string>(c, "arguments", "");
      r.ok = Get<bool>(c, "ok", false);
      r.error = Get<std::string>(c, "error", "");
      r.skill = Get<std::string>(c, "skill", "");
      r.artifacts = Strings(c, "artifacts");
      r.elapsed_ns = Get<int64_t>(c, "elapsed_ns", 0);
      s.tool_calls.push_back(std::move(r));
    }
    s.data_results = Get<int>(j, "data_results", 0);
    s.consecutive_failures = Get<int>(j, "consecutive_failures", 0);
    s.next_sql_artifact = Get<int>(j, "next_sql_artifact", 1);
    s.next_comparison_artifact = Get<int>(j, "next_comparison_artifact", 1);
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("malformed agent session: ", e.what()));
  }
  return s;
}

}  // namespace tw::agent
