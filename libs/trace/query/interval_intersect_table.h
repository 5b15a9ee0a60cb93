#pragma once
// SQL access to the interval intersection sweep (interval_intersect_sweep.h):
//
//   __intrinsic_intervals_agg(id, ts, dur, partition values...)
//     an aggregate that gathers a table's intervals into an IntervalSet, returned as a
//     pointer value (type "tw_interval_set") only the function below can read;
//   __intrinsic_interval_intersect_sweep(set0, set1, ...)
//     a table function over two to kMaxTables sets: columns ts, dur, id_0 .. id_15 (NULL past
//     the last table) and part_0 .. part_7 (the partition values; NULL past the last).
//
// interval_intersect_sql.h writes the SQL that wires them together for the stdlib macros.

#include <sqlite3.h>

#include "absl/status/status.h"

namespace tw {

inline constexpr int kIntervalIntersectMaxTables = 16;
inline constexpr int kIntervalIntersectMaxPartitions = 8;

absl::Status RegisterIntervalIntersect(sqlite3* db);

}  // namespace tw
