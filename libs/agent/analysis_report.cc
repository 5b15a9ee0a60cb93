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

const skills::StepResult* AnalysisReport::FindArtifact(const std::string& id) const {
  for (const auto& a : artifacts) {
    if (a->artifact_id == id) return a.get();
  }
  return nullptr;
}

}  // namespace tw::agent
