#pragma once
// experimental_flamegraph(profile_type, ts, ts_constraint, upid, upid_group, focus_str):
// trace_processor's older flamegraph table function. Profile type 'graph' gives the flamegraph
// of the Java heap dump of process `upid` at `ts` (heap_graph_flamegraph.h); other profile
// types are not built yet and say so. Rows: id, ts, depth, name, map_name, count,
// cumulative_count, size, cumulative_size, alloc_count, cumulative_alloc_count, alloc_size,
// cumulative_alloc_size, parent_id, source_file, line_number (the arguments are hidden
// columns). Errors: missing or mistyped arguments, an unknown profile type, a dump with nothing
// to show.

#include <sqlite3.h>

#include "absl/status/status.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

absl::Status RegisterExperimentalFlamegraph(sqlite3* db, const TraceStorage* storage);

}  // namespace tw
