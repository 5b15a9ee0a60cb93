#pragma once
// How a flamegraph sees one cell as text or as a key: for filter matching (integers in decimal,
// reals as %.15g), for the text aggregates (reals as SQLite prints them: an integral value keeps
// ".0"), for frame identity and for counting distinct values.

#include <cstdint>
#include <string>

#include "libs/trace/query/flamegraph_tree.h"

namespace tw::flamegraph {

// The text a filter regex is tried on; false for NULL (which matches nothing).
bool CellText(const Column& c, uint32_t row, const StringTable& strings, std::string* out);

// Appends the cell as the text aggregates show it.
void AppendAggregateText(const Column& c, uint32_t row, const StringTable& strings,
                         std::string* out);

// Appends a byte key equal for equal cells (NULL distinct from every value, -0.0 equal to 0.0).
void AppendCellKey(const Column& c, uint32_t row, std::string* key);

// A 64-bit key equal exactly for equal non-NULL cells of one column.
uint64_t DistinctKey(const Column& c, uint32_t row);

}  // namespace tw::flamegraph
