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
// What a scene's strategy asks of any analysis of it: plan aspects, mandatory phases (ids
// prefixed with `phase_prefix`), completeness rules and the pitfalls that apply to it.
verify::SceneRequirements RequirementsOf(const strategy::Strategy& scene,
                                         const std::string& phase_prefix = "");

// The offline analyst's report as the verifier's record; `scenes` are the scenes it analysed
// (the question's first), whose requirements it must meet.
verify::AnalysisRecord ToAnalysisRecord(const AnalysisReport& report,
                                        const std::vector<const strategy::Strategy*>& scenes);

}  // namespace tw::agent
