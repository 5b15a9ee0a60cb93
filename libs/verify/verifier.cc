#include "libs/verify/verifier.h"

#include <algorithm>

#include "libs/verify/rules.h"

namespace tw::verify {

bool VerifyResult::passed() const { return errors() == 0; }

int VerifyResult::errors() const {
  return static_cast<int>(std::count_if(issues.begin(), issues.end(), [](const VerifyIssue& i) {
    return i.severity == IssueSeverity::kError;
  }));
}

int VerifyResult::warnings() const { return static_cast<int>(issues.size()) - errors(); }

VerifyResult Verify(const AnalysisRecord& record) {
  Issues issues;
  CheckPlan(record, issues);
  CheckEvidence(record, issues);
  CheckGrounding(record, issues);
  CheckAnswerGrounding(record, issues);
  CheckHypotheses(record, issues);
  CheckSceneCompleteness(record, issues);
  CheckConclusion(record, issues);
  CheckKnownMisdiagnoses(record, issues);
  std::stable_partition(issues.begin(), issues.end(), [](const VerifyIssue& i) {
    return i.severity == IssueSeverity::kError;
  });
  return VerifyResult{std::move(issues)};
}

}  // namespace tw::verify
