#pragma once
// The message sent to the model in a correction turn: the error-level issues, numbered, each
// with what to do. Warnings are listed after them as advice.

#include <string>

#include "libs/verify/verify_issue.h"

namespace tw::verify {

// Empty when the result passed.
std::string CorrectionPrompt(const VerifyResult& result);

}  // namespace tw::verify
