#include "libs/agent/report_record.h"

#include <set>

#include "absl/strings/ascii.h"

namespace tw::agent {
namespace {

verify::ColumnUnit ToUnit(skills::ColumnType type) {
  switch (type) {
    case skills::ColumnType::kDurationNs: return verify::ColumnUnit::kDurationNs;
    case skills::ColumnType::kTimestampNs: return verify::ColumnUnit::kTimestampNs;
    case skills::ColumnType::kPercent: return verify::ColumnUnit::kPercent;
    case skills::ColumnType::kBytes: return verify::ColumnUnit::kBytes;
    case skills::ColumnType::kNumber: return verify::ColumnUnit::kNumber;
    default: return verify::ColumnUnit::kUnknown;
  }
}

verify::Cell ToCell(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kInt: return v.int_value;
    case SqlValue::Type::kDouble: return v.double_value;
    case SqlValue::Type::kString: return v.string_value;
    case SqlValue::Type::kNull: break;
  }
  return std::monostate{};
}

}  // namespace

verify::Severity ToVerifySeverity(FindingSeverity s) {
  switch (s) {
    case FindingSeverity::kCritical: return verify::Severity::kCritical;
    case FindingSeverity::kHigh: return verify::Severity::kHigh;
    case FindingSeverity::kMedium: return verify::Severity::kMedium;
    case FindingSeverity::kLow: return verify::Severity::kLow;
    case FindingSeverity::kInfo: return verify::Severity::kInfo;
  }
  return verify::Severity::kInfo;
}

verify::Artifact ToVerifyArtifact(const skills::StepResult& result) {
  verify::Artifact a;
  a.id = result.artifact_id;
  a.source = result.skill + "/" + result.step;
  for (const auto& c : result.columns) a.columns.push_back({c.name, ToUnit(c.type)});
  for (const auto& [name, value] : result.parameters) a.parameters.push_back(ToCell(value));
  a.rows.reserve(result.rows.size());
  for (const auto& row : result.rows) {
    std::vector<verify::Cell> cells;
    cells.reserve(row.size());
    for (const SqlValue& v : row) cells.push_back(ToCell(v));
    a.rows.push_back(std::move(cells));
  }
  return a;
}

verify::SceneRequirements RequirementsOf(const strategy::Strategy& scene,
                                         const std::string& phase_prefix) {
  verify::SceneRequirements r;
  r.plan_aspects = scene.plan_aspects;
  for (const strategy::Phase& p : scene.phases) {
    if (p.mandatory) r.mandatory_phases.push_back(phase_prefix + p.id);
  }
  for (const strategy::CompletenessRule& c : scene.completeness) {
    verify::CompletenessRule rule{scene.scene, c.requires_skill, {}, c.states_duration, c.message};
    for (const std::string& w : c.mention_any) rule.mention_any.push_back(absl::AsciiStrToLower(w));
    r.completeness.push_back(std::move(rule));
  }
  for (const strategy::Pitfall& p : scene.pitfalls) {
    verify::PitfallRule rule;
    rule.kind = p.kind;
    for (const std::string& s : p.severities) {
      rule.severities.push_back(s == "critical" ? verify::Severity::kCritical
                                : s == "high"   ? verify::Severity::kHigh
                                : s == "medium" ? verify::Severity::kMedium
                                : s == "low"    ? verify::Severity::kLow
                                                : verify::Severity::kInfo);
    }
    auto lower = [](const std::vector<std::string>& in) {
      std::vector<std::string> out;
      for (const std::string& w : in) out.push_back(absl::AsciiStrToLower(w));
      return out;
    };
    rule.all_of = lower(p.all_of);
    rule.any_of = lower(p.any_of);
    rule.title_any_of = lower(p.title_any_of);
    rule.message = p.message;
    r.pitfalls.push_back(std::move(rule));
  }
  return r;
}

verify::AnalysisRecord ToAnalysisRecord(const AnalysisReport& report,
                                        const std::vector<const strategy::Strategy*>& scenes) {
  verify::AnalysisRecord record;
  record.scene = report.scene;
  record.deterministic = report.deterministic;
  std::set<std::string> pitfalls;
  for (const strategy::Strategy* scene : scenes) {
    // Several scenes: their phases are told apart by prefix, as BuildPhases names them.
    const verify::SceneRequirements r = RequirementsOf(*scene, scenes.size() > 1 ? scene->scene + "." : "");
    auto& into = record.requirements;
    into.plan_aspects.insert(into.plan_aspects.end(), r.plan_aspects.begin(), r.plan_aspects.end());
    into.mandatory_phases.insert(into.mandatory_phases.end(), r.mandatory_phases.begin(),
                                 r.mandatory_phases.end());
    into.completeness.insert(into.completeness.end(), r.completeness.begin(), r.completeness.end());
    for (size_t i = 0; i < r.pitfalls.size(); ++i) {
      if (pitfalls.insert(scene->pitfalls[i].id).second) into.pitfalls.push_back(r.pitfalls[i]);
    }
  }
  // The procedure was written to cover the scene's aspects: it is the deterministic plan.
  record.plan.present = true;
  record.plan.covered_aspects = record.requirements.plan_aspects;
  for (const PhaseStatus& p : report.phases) {
    record.plan.phases.push_back({p.id, p.status, p.summary});
  }
  for (const AnalysisStep& s : report.steps) {
    if (s.status == "skipped") continue;
    record.tool_calls.push_back({"invoke_skill", s.skill, s.status == "ok", s.artifacts});
  }
  for (const auto& artifact : report.artifacts) record.artifacts.push_back(ToVerifyArtifact(*artifact));
  for (const ReportFinding& f : report.findings) {
    record.findings.push_back(
        {f.id, ToVerifySeverity(f.severity), f.title, f.description, f.evidence, f.scene});
  }
  record.conclusion = report.overview;
  record.answer = report.answer;
  record.answer_evidence = report.answer_evidence;
  return record;
}

}  // namespace tw::agent
