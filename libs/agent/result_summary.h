#pragma once
// Compact text of a result for the model: large results become artifacts and the model sees a
// summary — columns with types, row count, per-column statistics (numeric min/median/max,
// distinct values and the most frequent ones for text) and a few sample rows — instead of
// thousands of rows that would flood the context.

#include <cstddef>
#include <string>

#include "libs/skills/step_result.h"

namespace tw::agent {

struct SummaryOptions {
  size_t full_rows = 20;    // results up to this many rows are shown whole
  size_t sample_rows = 5;   // otherwise: this many first rows
  size_t top_values = 3;    // most frequent values per text column
  size_t max_cell_chars = 80;
};

// `artifact_id` is printed so the model can cite or page through it (fetch_artifact).
std::string SummarizeResult(const skills::StepResult& result, const SummaryOptions& options = {});

// Rows [offset, offset + limit) as a compact table (fetch_artifact paging).
std::string RenderRows(const skills::StepResult& result, size_t offset, size_t limit,
                       size_t max_cell_chars = 80);

}  // namespace tw::agent
