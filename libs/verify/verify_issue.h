#pragma once
// One problem the verifier found. Errors block the analysis (they trigger a correction turn);
// warnings are reported alongside it.

#include <string>
#include <vector>

namespace tw::verify {

enum class IssueSeverity { kError, kWarning };

struct VerifyIssue {
  IssueSeverity severity = IssueSeverity::kError;
  std::string kind;        // stable machine-readable id, e.g. "ungrounded_number"
  std::string message;     // what is wrong and how to fix it
  std::string finding_id;  // the finding concerned, when there is one
};

struct VerifyResult {
  std::vector<VerifyIssue> issues;
  bool passed() const;  // no error-level issue
  int errors() const;
  int warnings() const;
};

}  // namespace tw::verify
