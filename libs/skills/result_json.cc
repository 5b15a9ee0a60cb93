#include "libs/skills/result_json.h"

#include <cmath>

namespace tw::skills {

nlohmann::json SqlValueJson(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kNull:
      return nullptr;
    case SqlValue::Type::kInt:
      return v.int_value;
    case SqlValue::Type::kDouble:
      return std::isfinite(v.double_value) ? nlohmann::json(v.double_value) : nlohmann::json();
    case SqlValue::Type::kString:
      return v.string_value;
  }
  return nullptr;
}

nlohmann::json StepResultJson(const StepResult& r) {
  nlohmann::json j;
  j["step"] = r.step;
  j["kind"] = r.kind;
  j["status"] = StepStatusName(r.status);
  if (!r.message.empty()) j["message"] = r.message;
  j["title"] = r.title;
  j["level"] = r.level;
  j["artifact_id"] = r.artifact_id;
  j["columns"] = nlohmann::json::array();
  for (const auto& c : r.columns) {
    j["columns"].push_back({{"name", c.name}, {"type", ColumnTypeName(c.type)}, {"unit", c.unit}});
  }
  j["rows"] = nlohmann::json::array();
  for (const auto& row : r.rows) {
    nlohmann::json jr = nlohmann::json::array();
    for (const auto& v : row) jr.push_back(SqlValueJson(v));
    j["rows"].push_back(std::move(jr));
  }
  j["truncated"] = r.truncated;
  nlohmann::json prov;
  prov["skill"] = r.skill;
  prov["sql"] = r.sql;
  prov["elapsed_ns"] = r.elapsed_ns;
  prov["parameters"] = nlohmann::json::object();
  for (const auto& [k, v] : r.parameters) prov["parameters"][k] = SqlValueJson(v);
  j["provenance"] = std::move(prov);
  return j;
}

nlohmann::json FindingJson(const Finding& f) {
  nlohmann::json j;
  j["skill"] = f.skill;
  j["rule"] = f.rule;
  j["severity"] = SeverityName(f.severity);
  j["title"] = f.title;
  j["description"] = f.description;
  j["suggestions"] = f.suggestions;
  nlohmann::json ev;
  ev["step"] = f.evidence_step;
  ev["artifact_id"] = f.evidence_artifact_id;
  if (f.evidence_row >= 0) ev["row"] = f.evidence_row;
  ev["fields"] = nlohmann::json::object();
  for (const auto& [k, v] : f.evidence_fields) ev["fields"][k] = SqlValueJson(v);
  j["evidence"] = std::move(ev);
  return j;
}

nlohmann::json SkillRunResultJson(const SkillRunResult& result) {
  nlohmann::json j;
  j["skill"] = result.skill;
  j["outcome"] = SkillOutcomeName(result.outcome);
  j["message"] = result.message;
  j["elapsed_ns"] = result.elapsed_ns;
  j["steps"] = nlohmann::json::array();
  for (const auto& s : result.steps) j["steps"].push_back(StepResultJson(*s));
  j["findings"] = nlohmann::json::array();
  for (const auto& f : result.findings) j["findings"].push_back(FindingJson(f));
  return j;
}

}  // namespace tw::skills
