#include "libs/verify/correction_prompt.h"

#include "absl/strings/str_cat.h"

namespace tw::verify {

std::string CorrectionPrompt(const VerifyResult& result) {
  if (result.passed()) return "";
  std::string out =
      "The verifier rejected the analysis. Fix every error below, using the tools to get data "
      "where a claim lacks it, then give the corrected final answer. Do not repeat unsupported "
      "numbers: remove or correct them.\n\nErrors:\n";
  int n = 0;
  for (const VerifyIssue& issue : result.issues) {
    if (issue.severity != IssueSeverity::kError) continue;
    absl::StrAppend(&out, ++n, ". [", issue.kind, "]",
                    issue.finding_id.empty() ? "" : absl::StrCat(" (finding ", issue.finding_id, ")"),
                    " ", issue.message, "\n");
  }
  if (result.warnings() > 0) {
    absl::StrAppend(&out, "\nAlso consider:\n");
    for (const VerifyIssue& issue : result.issues) {
      if (issue.severity == IssueSeverity::kWarning) {
        absl::StrAppend(&out, "- [", issue.kind, "] ", issue.message, "\n");
      }
    }
  }
  return out;
}

}  // namespace tw::verify
