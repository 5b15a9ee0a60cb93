#pragma once
// Parses a `*.strategy.md` file into a Strategy. Strict: unknown keys, wrong types and invalid
// regular expressions are errors naming the file and line, so a typo in a strategy fails CI
// instead of silently weakening classification or the planning gate.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "libs/strategy/strategy.h"

namespace tw::strategy {

absl::StatusOr<Strategy> ParseStrategy(std::string_view text, const std::string& path);

}  // namespace tw::strategy
