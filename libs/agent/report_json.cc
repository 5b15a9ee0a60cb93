#include <nlohmann/json.hpp>

#include "libs/agent/report_render.h"

namespace tw::agent {
namespace {

nlohmann::json Value(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kInt: return v.int_value;  // int64 stays exact (ns timestamps)
    case SqlValue::Type::kDouble: return v.double_value;
    case SqlValue::Type::kString: return v.string_value;
    case SqlValue::Type::kNull: break;
  }
  return nullptr;
}

}  // namespace

nlohmann::json ArtifactJson(const skills::StepResult& r, size_t max_rows) {
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& c : r.columns) {
    columns.push_back({{"name", c.name}, {"type", skills::ColumnTypeName(c.type)}, {"unit", c.unit}});
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows) {
    if (rows.size() >= max_rows) break;
    nlohmann::json cells = nlohmann::json::array();
    for (const SqlValue& v : row) cells.push_back(Value(v));
    rows.push_back(std::move(cells));
  }
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : r.parameters) params[name] = Value(value);
  return {{"id", r.artifact_id}, {"skill", r.skill},     {"step", r.step},
          {"title", r.title},    {"columns", columns},   {"rows", rows},
          {"truncated", r.truncated}, {"sql", r.sql},    {"parameters", params},
          {"elapsed_ns", r.elapsed_ns}, {"total_rows", r.rows.size()}, {"level", r.level}};
}

std::string RenderJson(const AnalysisReport& report) {
  nlohmann::json j;
  j["question"] = report.question;
  j["answer"] = report.answer;
  j["answer_evidence"] = report.answer_evidence;
  j["trace"] = report.trace;
  if (!report.scope.empty()) j["scope"] = report.scope;
  j["scene"] = report.scene;
  j["scene_matched_by"] = report.scene_matched_by;
  j["scenes"] = report.scenes;
  j["scenes_checked"] = nlohmann::json::array();
  for (const SceneCheck& c : report.scenes_checked) {
    j["scenes_checked"].push_back({{"scene", c.scene},
                                   {"title", c.title},
                                   {"status", c.status},
                                   {"summary", c.summary},
                                   {"evidence", c.evidence},
                                   {"analysed", c.analysed},
                                   {"reason", c.reason}});
  }
  j["deterministic"] = report.deterministic;
  j["verified"] = report.verified;
  j["elapsed_ns"] = report.elapsed_ns;
  j["overview"] = report.overview;
  j["findings"] = nlohmann::json::array();
  for (const ReportFinding& f : report.findings) {
    j["findings"].push_back({{"id", f.id},
                             {"severity", FindingSeverityName(f.severity)},
                             {"title", f.title},
                             {"description", f.description},
                             {"evidence", f.evidence},
                             {"suggestions", f.suggestions},
                             {"source", f.source},
                             {"scene", f.scene}});
  }
  j["causal_chain"] = nlohmann::json::array();
  for (const CausalLink& l : report.causal_chain) {
    j["causal_chain"].push_back({{"statement", l.statement}, {"evidence", l.evidence}});
  }
  j["recommendations"] = report.recommendations;
  j["limits"] = report.limits;
  j["phases"] = nlohmann::json::array();
  for (const PhaseStatus& p : report.phases) {
    j["phases"].push_back({{"id", p.id}, {"goal", p.goal}, {"mandatory", p.mandatory},
                           {"status", p.status}, {"summary", p.summary}});
  }
  j["steps"] = nlohmann::json::array();
  for (const AnalysisStep& s : report.steps) {
    j["steps"].push_back({{"id", s.id}, {"skill", s.skill}, {"status", s.status},
                          {"message", s.message}, {"why", s.why}, {"artifacts", s.artifacts},
                          {"elapsed_ns", s.elapsed_ns}});
  }
  j["artifacts"] = nlohmann::json::array();
  for (const auto& a : report.artifacts) j["artifacts"].push_back(ArtifactJson(*a));
  j["verifier_issues"] = nlohmann::json::array();
  for (const verify::VerifyIssue& i : report.verifier_issues) {
    j["verifier_issues"].push_back(
        {{"severity", i.severity == verify::IssueSeverity::kError ? "error" : "warning"},
         {"kind", i.kind}, {"message", i.message}, {"finding_id", i.finding_id}});
  }
  if (!report.comparison.empty()) j["comparison"] = report.comparison;
  // Invalid UTF-8 from a trace must not throw out of here: replace it.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tw::agent
