#pragma once
// The verifier's rules, one function each. Every rule appends issues for what it checks and
// nothing else, so a rule can be tested (and explained) on its own.

#include <vector>

#include "libs/verify/analysis_record.h"
#include "libs/verify/verify_issue.h"

namespace tw::verify {

using Issues = std::vector<VerifyIssue>;

// A plan exists (LLM analyses; the offline analyst's procedure is its plan), covers the scene's
// plan aspects, and every mandatory phase is done.
void CheckPlan(const AnalysisRecord& record, Issues& out);
// Critical/high findings cite evidence; every cited artifact exists.
void CheckEvidence(const AnalysisRecord& record, Issues& out);
// Each number a finding states appears, within its rounding, in an artifact it cites.
void CheckGrounding(const AnalysisRecord& record, Issues& out);
// Each number the direct answer states appears in an artifact it cites.
void CheckAnswerGrounding(const AnalysisRecord& record, Issues& out);
// Every hypothesis is resolved; confirmed ones cite evidence.
void CheckHypotheses(const AnalysisRecord& record, Issues& out);
// Scene-specific completeness, as the strategies declare it (scrolling jank needs a per-frame
// drill, a startup states its type and duration, an ANR gives the blocking chain): each rule
// applies once its scene's findings report a critical or high problem.
void CheckSceneCompleteness(const AnalysisRecord& record, Issues& out);
// Shape of the conclusion: not empty, not too many criticals, severities in order.
void CheckConclusion(const AnalysisRecord& record, Issues& out);
// Known misdiagnoses, as the pitfall files declare them (one slow frame as critical, buffer
// stuffing blamed on the app, ...).
void CheckKnownMisdiagnoses(const AnalysisRecord& record, Issues& out);

}  // namespace tw::verify
