#pragma once
// A comparison without a model: the scene procedure's steps (its key skills) run on both traces
// and compared with skill_comparison, for the offline analyst's report. Each trace evaluates the
// steps' parameters and conditions against its own probe results, since the focus app's upid
// differs between traces. The result is the difference tables (cmp-N artifacts) and a Markdown
// section listing the numbers; nothing is interpreted.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "libs/agent/skill_comparison.h"
#include "libs/strategy/strategy.h"

namespace tw::agent {

struct ProcedureComparison {
  std::vector<std::shared_ptr<const skills::StepResult>> differences;  // cmp-1, cmp-2, ...
  std::string markdown;  // "## Comparison with the reference trace ..." section
};

struct ProcedureComparisonOptions {
  std::string current_label;    // how the section names the traces (ids or paths)
  std::string reference_label;
  size_t lines_per_skill = 12;  // difference lines shown per skill (all are in the artifact)
  // Called before each compared skill; may be empty.
  std::function<void(const std::string& skill)> on_skill;
  // Polled between skills; may be empty.
  std::function<bool()> cancelled;
  // The probes every procedure runs first (StrategyLibrary::context_probes()): steps read them.
  std::vector<strategy::ProcedureStep> context_probes;
};

ProcedureComparison CompareProcedure(const strategy::Strategy& strategy, SkillRunner& current,
                                     SkillRunner& reference,
                                     const ProcedureComparisonOptions& options = {});

}  // namespace tw::agent
