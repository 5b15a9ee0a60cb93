#pragma once
// The SQL face of a loaded trace: one SQLite connection over the trace's columnar tables, with
// trace_processor's public views, Perfetto SQL statements (INCLUDE PERFETTO MODULE, CREATE
// PERFETTO TABLE/VIEW/FUNCTION/MACRO), extra functions (EXTRACT_ARG, PERCENTILE, ...) and the
// guards callers need: read-only trace tables, deadlines, row/byte limits and cancellation.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/trace/query/sql_value.h"

struct sqlite3;

namespace tw {

class TraceStorage;

struct QueryOptions {
  absl::Duration timeout = absl::InfiniteDuration();
  int64_t max_rows = -1;   // -1: unlimited; otherwise the result is cut and marked truncated
  int64_t max_bytes = -1;  // approximate size of the result's cells
  const std::atomic<bool>* cancelled = nullptr;  // set to true from another thread to cancel
};

class TraceDatabase {
 public:
  // `storage` must outlive the database and must not change after this call.
  static absl::StatusOr<std::unique_ptr<TraceDatabase>> Open(TraceStorage* storage);
  ~TraceDatabase();

  // Runs every statement of `sql` in order and returns the last one's rows. Errors:
  // INVALID_ARGUMENT (SQL error, with SQLite's message; unknown module), PERMISSION_DENIED
  // (write to a trace table), DEADLINE_EXCEEDED, CANCELLED.
  absl::StatusOr<QueryResult> Execute(std::string_view sql, const QueryOptions& options = {});

  // Names of every table and view a query can use, for schema look-ups.
  absl::StatusOr<QueryResult> ListTablesAndViews();

  sqlite3* raw_connection() { return db_; }
  TraceStorage* storage() { return storage_; }

  struct Impl;

 private:
  TraceDatabase() = default;
  TraceStorage* storage_ = nullptr;
  sqlite3* db_ = nullptr;
  std::unique_ptr<Impl> impl_;
  std::mutex mu_;  // one statement at a time per connection
};

}  // namespace tw
