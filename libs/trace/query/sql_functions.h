#pragma once
// Native SQL functions trace_processor offers beyond SQLite's, computed from the trace's storage:
//   EXTRACT_ARG(arg_set_id, key)                  one arg's value (int / real / string)
//   PERCENTILE(x, p), MEDIAN(x)                   aggregates, p in [0, 100], linear interpolation
//   TRACE_START(), TRACE_END(), TRACE_DUR()       trace bounds
//   EXTRACT_METADATA(name), EXTRACT_METADATA_FOR_MACHINE(machine_id, name),
//   EXTRACT_METADATA_FOR_TRACE(trace_id, name), EXTRACT_EXACT_METADATA(machine_id, trace_id,
//   name)                                         a metadata value
//   TO_REALTIME(ts), TO_MONOTONIC(ts), ABS_TIME_STR(ts)   clock conversions via clock_snapshot
//   TO_TIMECODE(ts), HASH(...), REVERSE(s), UNHEX(s), STR_SPLIT(s, delimiter, index)
//   __INTRINSIC_ARG_SET_TO_JSON(arg_set_id)      the arg set as one JSON object (arg_set_json.h)
//   TO_FTRACE(id)                                 an ftrace_event row as its kernel text line
// Semantics (NULL handling, error texts) follow trace_processor's so SQL written for it behaves
// the same here.

#include <sqlite3.h>

#include <memory>

#include "absl/status/status.h"

namespace tw {

class TraceStorage;
struct SqlFunctionCaches;

// What the functions of one connection share: the (immutable) storage, and lookup structures
// built on first use. Must outlive the connection.
struct SqlFunctionContext {
  explicit SqlFunctionContext(const TraceStorage* storage);
  ~SqlFunctionContext();
  SqlFunctionContext(const SqlFunctionContext&) = delete;
  SqlFunctionContext& operator=(const SqlFunctionContext&) = delete;

  const TraceStorage* storage;
  std::unique_ptr<SqlFunctionCaches> caches;
};

absl::Status RegisterSqlFunctions(sqlite3* db, SqlFunctionContext* context);

}  // namespace tw
