#pragma once
// Window functions trace_processor's prelude offers beyond SQLite's:
//   LAST_NON_NULL(x) OVER (...)     the last non-NULL x in the window frame (NULL if none);
//                                   any frame, O(1) per row
//   INTERNAL_LAYOUT(ts, dur) OVER (ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
//                                   a depth for each span so that spans open at the same time
//                                   never share one: the lowest depth whose last span has ended
//                                   (ended: its ts + dur <= this ts; dur < 0 never ends). Rows
//                                   must come in ts order, within each partition.

#include <sqlite3.h>

#include "absl/status/status.h"

namespace tw {

absl::Status RegisterWindowFunctions(sqlite3* db);

}  // namespace tw
