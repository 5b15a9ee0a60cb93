#include "libs/verify/analysis_record.h"

namespace tw::verify {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kCritical: return "critical";
    case Severity::kHigh: return "high";
    case Severity::kMedium: return "medium";
    case Severity::kLow: return "low";
    case Severity::kInfo: return "info";
  }
  return "unknown";
}

const Artifact* AnalysisRecord::FindArtifact(const std::string& id) const {
  for (const Artifact& a : artifacts) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

}  // namespace tw::verify
