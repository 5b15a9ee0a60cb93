#pragma once
// The verifier's view of a report: its plan (the strategy's aspects and the phases as they
// ended), the skill runs as tool calls, the cited artifacts with their column units, findings
// and conclusion.

#include "libs/agent/analysis_report.h"
#include "libs/strategy/strategy.h"
#include "libs/verify/analysis_record.h"

namespace tw::agent {

verify::Severity ToVerifySeverity(FindingSeverity severity);
verify::Artifact ToVerifyArtifact(const skills::StepResult& result);
verify::AnalysisRecord ToAnalysisRecord(const AnalysisReport& report,
                                        const strategy::Strategy& strategy);

}  // namespace tw::agent
