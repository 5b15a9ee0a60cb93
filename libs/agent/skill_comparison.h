#pragma once
// One skill run the same way on two traces, and what differs between the runs: the numeric
// columns of the skill's summary steps, row by row, as "current vs reference" with the absolute
// and the relative delta. Rows are matched by their text columns (process, layer, thread
// names), since ids such as upid differ between traces. The difference table is an ordinary
// StepResult, so it is stored, shown, cited and grounded like any other artifact.
//
// The reference run's artifacts get the prefix "ref-": a skill's artifact ids depend on its SQL
// and parameters, not on the trace, so both runs would otherwise produce the same ids.

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "libs/agent/skill_runner.h"
#include "libs/skills/skill_executor.h"
#include "libs/skills/step_result.h"

namespace tw::agent {

inline constexpr char kReferenceArtifactPrefix[] = "ref-";

struct ComparisonOptions {
  size_t rows_per_step = 5;    // rows of each summary step compared (the first ones)
  size_t max_differences = 80; // rows of the difference table
};

struct SkillComparison {
  skills::SkillRunResult current;
  skills::SkillRunResult reference;  // artifacts and findings' evidence renamed "ref-..."
  // skill | step | row | column | unit | current | reference | delta | delta_pct; null when
  // neither run had a summary step that ran (see `notes`).
  std::shared_ptr<skills::StepResult> differences;
  std::vector<std::string> notes;  // how rows were matched, steps that ran on one side only
};

// The run of a reference trace with its artifact ids (steps, cited evidence, findings' evidence)
// prefixed with "ref-" and its step titles marked as the reference's.
skills::SkillRunResult AsReferenceRun(skills::SkillRunResult run);

// The difference table of two runs of one skill under `artifact_id`. `notes` (may be null)
// receives how rows were matched and what could not be compared.
std::shared_ptr<skills::StepResult> DifferenceTable(const skills::SkillRunResult& current,
                                                    const skills::SkillRunResult& reference,
                                                    const std::string& artifact_id,
                                                    const ComparisonOptions& options,
                                                    std::vector<std::string>* notes);

// Runs `skill` on both traces (each with its own inputs) and builds the difference table.
SkillComparison CompareSkillRuns(const std::string& skill,
                                 const std::map<std::string, SqlValue>& current_inputs,
                                 const std::map<std::string, SqlValue>& reference_inputs,
                                 SkillRunner& current, SkillRunner& reference,
                                 const std::string& differences_id,
                                 const ComparisonOptions& options = {});

// One line per difference row: "layers [app / layer] p90_dur: 35.200 ms vs 16.100 ms
// (+19.100 ms, +118.63%)", values formatted by their unit. At most `max_lines` lines.
std::string DescribeDifferences(const skills::StepResult& differences, size_t max_lines);

}  // namespace tw::agent
