#include "libs/agent/report_record.h"

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

verify::AnalysisRecord ToAnalysisRecord(const AnalysisReport& report,
                                        const strategy::Strategy& strategy) {
  verify::AnalysisRecord record;
  record.scene = report.scene;
  record.deterministic = report.deterministic;
  record.requirements.plan_aspects = strategy.plan_aspects;
  for (const strategy::Phase& p : strategy.phases) {
    if (p.mandatory) record.requirements.mandatory_phases.push_back(p.id);
  }
  // The procedure was written to cover the scene's aspects: it is the deterministic plan.
  record.plan.present = true;
  record.plan.covered_aspects = strategy.plan_aspects;
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
        {f.id, ToVerifySeverity(f.severity), f.title, f.description, f.evidence});
  }
  record.conclusion = report.overview;
  return record;
}

}  // namespace tw::agent
