#pragma once
// The seam between everything that asks SQL questions (skills, the agent's tools, the CLI) and
// whatever holds the traces (DESIGN.md §1): `LocalQueryBackend` in this process, libs/rpc's
// gRPC client against a trace-query service. Same contract, same error codes either way.

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/trace/query/sql_value.h"
#include "libs/trace/query/trace_database.h"

namespace tw {

struct BackendQuery {
  std::string trace_id;
  std::string sql;
  std::vector<std::pair<std::string, SqlValue>> params;  // bound as `:name`, never spliced
  int64_t max_rows = -1;
  absl::Duration timeout = absl::InfiniteDuration();
  const std::atomic<bool>* cancelled = nullptr;
  // When set, rows are delivered in batches here instead of in the returned result.
  const RowStream* stream = nullptr;
};

struct TableColumns {
  std::string name;
  std::vector<std::string> columns;
};

class QueryBackend {
 public:
  virtual ~QueryBackend() = default;
  // NOT_FOUND (unknown trace), INVALID_ARGUMENT (SQL error with SQLite's message),
  // PERMISSION_DENIED (write attempt), DEADLINE_EXCEEDED, CANCELLED, RESOURCE_EXHAUSTED.
  virtual absl::StatusOr<QueryResult> Query(const BackendQuery& query) = 0;
  virtual absl::StatusOr<std::vector<TableColumns>> GetSchema(const std::string& trace_id) = 0;
};

class TraceManager;

class LocalQueryBackend : public QueryBackend {
 public:
  explicit LocalQueryBackend(TraceManager* manager) : manager_(manager) {}
  absl::StatusOr<QueryResult> Query(const BackendQuery& query) override;
  absl::StatusOr<std::vector<TableColumns>> GetSchema(const std::string& trace_id) override;

 private:
  TraceManager* manager_;
};

}  // namespace tw
