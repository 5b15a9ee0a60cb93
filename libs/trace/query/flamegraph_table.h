#pragma once
// trace_processor's generic flamegraph operator as a SQLite module (the algorithm and its
// semantics: flamegraph.h):
//
//   CREATE VIRTUAL TABLE fg USING __intrinsic_flamegraph((SELECT id, parent_id, name, value, ...));
//   SELECT * FROM fg(__intrinsic_flamegraph_config('value', 'value', 'view', 'TOP_DOWN', ...));
//
// The source is read once, at CREATE; its first four columns must be id, parent_id, name, value.
// __intrinsic_flamegraph_config takes tagged arguments: 'view' TOP_DOWN|BOTTOM_UP|PIVOT|FROM_FRAME,
// 'view_pattern' regex flags, 'filter' SHOW_STACK|HIDE_STACK|HIDE_FRAME regex flags,
// 'grouping' column, 'value' column, 'aggregate' SUM|ONE_OR_SUMMARY|CONCAT_WITH_COMMA input
// output (flags '' or 'i', case-insensitive). Each query of fg builds the flamegraph afresh.
// Columns: _tree_id, _tree_parent_id (output row ids), depth, name, self_value, cumulative_value,
// parent_cumulative_value (of the first value column), x_start, x_end, then every further source
// column (the grouping columns' and aggregates' values; NULL otherwise), then self_<c> and
// cumulative_<c> for each numeric further source column c (NULL unless c is a value column).
// `WHERE __intrinsic_flamegraph_find(_tree_id, 'SUPER_ROOT')` selects instead the single super
// root: _tree_id 0, depth 0, cumulative_value the source's value sum as a real.

#include <sqlite3.h>

#include "absl/status/status.h"

namespace tw {

absl::Status RegisterFlamegraphModule(sqlite3* db);

}  // namespace tw
