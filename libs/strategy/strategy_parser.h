#pragma once
// Parses a `*.strategy.md` file into a Strategy. Strict: unknown keys, wrong types and invalid
// regular expressions are errors naming the file and line, so a typo in a strategy fails CI
// instead of silently weakening classification or the planning gate.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/strategy/strategy.h"

namespace tw::strategy {

absl::StatusOr<Strategy> ParseStrategy(std::string_view text, const std::string& path);

// `strategies/pitfalls/<id>.md`: a known misdiagnosis the verifier checks every analysis for.
absl::StatusOr<Pitfall> ParsePitfall(std::string_view text, const std::string& path);

// `strategies/context.md`: the context probes every analysis runs first, whatever the scene
// (frontmatter `probes:`, the same shape as a procedure's probes). Their results are
// `steps.<id>` in every strategy's expressions.
absl::StatusOr<std::vector<ProcedureStep>> ParseContextProbes(std::string_view text,
                                                              const std::string& path);

}  // namespace tw::strategy
