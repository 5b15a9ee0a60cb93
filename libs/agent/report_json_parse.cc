// ParseReportJson: the inverse of RenderJson (report_json.cc), so a client of a remote
// orchestrator renders the report it receives exactly as an embedded run renders its own.
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "libs/agent/report_render.h"
#include "libs/agent/tool_support.h"

namespace tw::agent {
namespace {

using nlohmann::json;

std::vector<std::string> Strings(const json& j, const char* key) { return GetStringListArg(j, key); }

FindingSeverity SeverityFrom(const std::string& name) {
  for (FindingSeverity s : {FindingSeverity::kCritical, FindingSeverity::kHigh, FindingSeverity::kMedium,
                            FindingSeverity::kLow, FindingSeverity::kInfo}) {
    if (name == FindingSeverityName(s)) return s;
  }
  return FindingSeverity::kMedium;
}

SqlValue ValueFrom(const json& v) {
  if (v.is_number_integer()) return SqlValue::Int(v.get<int64_t>());
  if (v.is_number()) return SqlValue::Double(v.get<double>());
  if (v.is_string()) return SqlValue::String(v.get<std::string>());
  if (v.is_boolean()) return SqlValue::Int(v.get<bool>() ? 1 : 0);
  return SqlValue::Null();
}

std::shared_ptr<const skills::StepResult> ArtifactFrom(const json& a) {
  auto r = std::make_shared<skills::StepResult>();
  r->artifact_id = a.value("id", "");
  r->skill = a.value("skill", "");
  r->step = a.value("step", "");
  r->title = a.value("title", "");
  for (const json& c : a.value("columns", json::array())) {
    skills::ResultColumn column;
    column.name = c.value("name", "");
    if (!skills::ParseColumnType(c.value("type", "string"), &column.type)) {
      column.type = skills::ColumnType::kString;
    }
    column.unit = c.value("unit", "");
    r->columns.push_back(std::move(column));
  }
  for (const json& row : a.value("rows", json::array())) {
    std::vector<SqlValue> cells;
    for (const json& cell : row) cells.push_back(ValueFrom(cell));
    r->rows.push_back(std::move(cells));
  }
  r->truncated = a.value("truncated", false);
  r->sql = a.value("sql", "");
  const json parameters = a.value("parameters", json::object());  // items() must not outlive it
  for (const auto& [name, value] : parameters.items()) r->parameters.emplace_back(name, ValueFrom(value));
  r->elapsed_ns = a.value("elapsed_ns", int64_t{0});
  r->level = a.value("level", "");
  return r;
}

}  // namespace

absl::StatusOr<AnalysisReport> ParseReportJson(const std::string& text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return absl::InvalidArgumentError("the report is not a JSON object");
  }
  AnalysisReport r;
  try {
    r.question = j.value("question", "");
    r.trace = j.value("trace", "");
    r.scope = j.value("scope", "");
    r.scene = j.value("scene", "");
    r.scene_matched_by = j.value("scene_matched_by", "");
    r.answer = j.value("answer", "");
    r.answer_evidence = Strings(j, "answer_evidence");
    r.scenes = Strings(j, "scenes");
    for (const json& c : j.value("scenes_checked", json::array())) {
      SceneCheck check;
      check.scene = c.value("scene", "");
      check.title = c.value("title", "");
      check.status = c.value("status", "");
      check.summary = c.value("summary", "");
      check.evidence = Strings(c, "evidence");
      check.analysed = c.value("analysed", false);
      check.reason = c.value("reason", "");
      r.scenes_checked.push_back(std::move(check));
    }
    r.deterministic = j.value("deterministic", false);
    r.verified = j.value("verified", false);
    r.elapsed_ns = j.value("elapsed_ns", int64_t{0});
    r.overview = j.value("overview", "");
    for (const json& f : j.value("findings", json::array())) {
      ReportFinding finding;
      finding.id = f.value("id", "");
      finding.severity = SeverityFrom(f.value("severity", ""));
      finding.title = f.value("title", "");
      finding.description = f.value("description", "");
      finding.evidence = Strings(f, "evidence");
      finding.suggestions = Strings(f, "suggestions");
      finding.source = f.value("source", "");
      finding.scene = f.value("scene", "");
      r.findings.push_back(std::move(finding));
    }
    for (const json& l : j.value("causal_chain", json::array())) {
      r.causal_chain.push_back({l.value("statement", ""), Strings(l, "evidence")});
    }
    r.recommendations = Strings(j, "recommendations");
    r.limits = Strings(j, "limits");
    for (const json& p : j.value("phases", json::array())) {
      r.phases.push_back({p.value("id", ""), p.value("goal", ""), p.value("mandatory", false),
                          p.value("status", ""), p.value("summary", "")});
    }
    for (const json& s : j.value("steps", json::array())) {
      AnalysisStep step;
      step.id = s.value("id", "");
      step.skill = s.value("skill", "");
      step.status = s.value("status", "");
      step.message = s.value("message", "");
      step.why = s.value("why", "");
      step.artifacts = Strings(s, "artifacts");
      step.elapsed_ns = s.value("elapsed_ns", int64_t{0});
      r.steps.push_back(std::move(step));
    }
    for (const json& a : j.value("artifacts", json::array())) r.artifacts.push_back(ArtifactFrom(a));
    for (const json& i : j.value("verifier_issues", json::array())) {
      verify::VerifyIssue issue;
      issue.severity = i.value("severity", "error") == "error" ? verify::IssueSeverity::kError
                                                               : verify::IssueSeverity::kWarning;
      issue.kind = i.value("kind", "");
      issue.message = i.value("message", "");
      issue.finding_id = i.value("finding_id", "");
      r.verifier_issues.push_back(std::move(issue));
    }
    r.comparison = j.value("comparison", "");
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("malformed report: ", e.what()));
  }
  return r;
}

}  // namespace tw::agent
