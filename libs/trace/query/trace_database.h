#pragma once
// The SQL face of a loaded trace: one SQLite connection over the trace's columnar tables, with
// trace_processor's public views, Perfetto SQL statements (INCLUDE PERFETTO MODULE, CREATE
// PERFETTO TABLE/VIEW/FUNCTION/MACRO), extra functions (EXTRACT_ARG, PERCENTILE, ...) and the
// guards callers need: read-only trace tables, deadlines, row/byte limits and cancellation.

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/trace/query/sql_value.h"

struct sqlite3;

namespace tw {

class TraceStorage;

// Receives a result in batches instead of one QueryResult (streaming to a client): first the
// column names (once, before any batch), then batches of rows. Returning false stops the query
// (it ends with CANCELLED).
struct RowStream {
  std::function<bool(const std::vector<std::string>& columns)> on_columns;
  std::function<bool(std::vector<std::vector<SqlValue>>&& rows)> on_rows;
  size_t batch_rows = 1000;
};

struct QueryOptions {
  absl::Duration timeout = absl::InfiniteDuration();
  int64_t max_rows = -1;   // -1: unlimited; otherwise the result is cut and marked truncated
  int64_t max_bytes = -1;  // approximate size of the result's cells
  const std::atomic<bool>* cancelled = nullptr;  // set to true from another thread to cancel
  // Values for `:name` parameters, bound (never spliced) on every plain SQL statement that uses
  // them; parameters without a value are NULL.
  std::vector<std::pair<std::string, SqlValue>> params;
  // When set, the last statement's rows go here and the returned QueryResult has no rows (its
  // columns, truncated flag and counts are still set).
  const RowStream* stream = nullptr;
  // Also collect, in QueryResult::outputs, the result set of every statement that has output,
  // as trace_processor's shell prints a multi-statement query: a statement with columns has
  // output (zero rows included), except a single column named `suppress_query_output` or a
  // row whose single value comes from a void function (CREATE_FUNCTION, IMPORT, ...).
  // Statements without columns (INCLUDE, CREATE PERFETTO TABLE, ...) have none.
  bool every_output = false;
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

  // Memory this connection holds beyond the tables: the lazily built column indexes and
  // SQLite's page cache, schema and prepared statements (included modules' tables live there).
  // While a statement runs, SQLite's share is the figure from the last idle moment.
  int64_t memory_bytes();

  sqlite3* raw_connection() { return db_; }
  TraceStorage* storage() { return storage_; }

  struct Impl;

 private:
  TraceDatabase() = default;
  TraceStorage* storage_ = nullptr;
  sqlite3* db_ = nullptr;
  std::unique_ptr<Impl> impl_;
  std::mutex mu_;  // one statement at a time per connection
  int64_t sqlite_bytes_ = 0;  // SQLite's share at the last memory_bytes() that found it idle
};

}  // namespace tw
