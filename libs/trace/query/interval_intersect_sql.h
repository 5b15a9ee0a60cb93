#pragma once
// The SQL behind the stdlib's interval-intersect macros (intervals/intersect.sql):
//
//   __intrinsic_interval_intersect!((t0, t1, ...), (p0, p1, ...))
//   __intrinsic_interval_intersect_named!(t0, id0, ts0, dur0, t1, id1, ts1, dur1, ..., (p...))
//
// expand to a subquery with one row per combination of intervals, one from each table, that
// share every partition column's value and have a point in common: columns ts (the latest
// start), dur (the earliest end minus ts), id_0, id_1, ... (each table's id, in the order given)
// and the partition columns. An interval is [ts, ts + dur); a zero-duration one is the point ts,
// which meets an interval containing it (start included, end excluded) and a point at the same
// ts. Intervals of one table may overlap each other. The subquery gathers each table with
// __intrinsic_intervals_agg and intersects them in one sweep (interval_intersect_table.h), so
// the cost is O(n log n + rows out) with or without partitions.

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tw {

struct IntervalSource {
  std::string table;  // a table name or a parenthesised subquery
  std::string id_column = "id";
  std::string ts_column = "ts";
  std::string dur_column = "dur";
};

// Errors: INVALID_ARGUMENT with fewer than two tables, more than kIntervalIntersectMaxTables
// or more than kIntervalIntersectMaxPartitions partition columns.
absl::StatusOr<std::string> IntervalIntersectSql(const std::vector<IntervalSource>& sources,
                                                 const std::vector<std::string>& partitions);

}  // namespace tw
