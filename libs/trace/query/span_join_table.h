#pragma once
// trace_processor's span join operator tables as SQLite modules:
//
//   CREATE VIRTUAL TABLE x USING SPAN_JOIN(t1 [PARTITIONED col], t2 [PARTITIONED col]);
//   ... SPAN_LEFT_JOIN(...), SPAN_OUTER_JOIN(...)
//
// t1 and t2 are tables or views with a `ts` column and (in at least one of them) a `dur`
// column; x has the columns ts, dur, the partition column (when either side is partitioned), then
// t1's other columns, then t2's. Each query of x reads both inputs afresh and walks them with
// span_join_sweep.h (whose header states the semantics). Errors, as the CREATE's message:
// not two arguments, a malformed "name PARTITIONED col", an unknown table, a missing ts or
// partition column, ts/dur as the partition, different partition columns, no dur on either
// side, a column name on both sides; at query time, a partition value that is not an integer.

#include <sqlite3.h>

#include "absl/status/status.h"

namespace tw {

absl::Status RegisterSpanJoinModules(sqlite3* db);

}  // namespace tw
