#include "libs/agent/analysis_report.h"

namespace tw::agent {

const char* FindingSeverityName(FindingSeverity severity) {
  switch (severity) {
    case FindingSeverity::kCritical: return "critical";
    case FindingSeverity::kHigh: return "high";
    case FindingSeverity::kMedium: return "medium";
    case FindingSeverity::kLow: return "low";
    case FindingSeverity::kInfo: return "info";
  }
  return "unknown";
}

FindingSeverity FindingSeverityFromSkill(skills::Severity s) {
  switch (s) {
    case skills::Severity::kCritical: return FindingSeverity::kCritical;
    case skills::Severity::kWarning: return FindingSeverity::kHigh;
    case skills::Severity::kNotice: return FindingSeverity::kMedium;
    case skills::Severity::kInfo: return FindingSeverity::kLow;
  }
  return FindingSeverity::kInfo;
}

ReportFinding ReportFindingFromSkill(const skills::Finding& f) {
  ReportFinding out;
  out.severity = FindingSeverityFromSkill(f.severity);
  out.title = f.title;
  out.description = f.description;
  if (!f.evidence_artifact_id.empty()) out.evidence.push_back(f.evidence_artifact_id);
  out.suggestions = f.suggestions;
  out.source = "skill " + f.skill + " / rule " + f.rule;
  out.cause = f.cause;
  out.impact = f.impact;
  return out;
}

const skills::StepResult* AnalysisReport::FindArtifact(const std::string& id) const {
  for (const auto& a : artifacts) {
    if (a->artifact_id == id) return a.get();
  }
  return nullptr;
}

}  // namespace tw::agent
