#include "libs/skills/trace_database_runner.h"

#include "libs/trace/stdlib/stdlib.h"

namespace tw::skills {

bool TraceDatabaseRunner::HasModule(std::string_view name) { return FindSqlModule(name) != nullptr; }

absl::StatusOr<QueryResult> TraceDatabaseRunner::Query(std::string_view sql,
                                                       const BoundParams& params,
                                                       int64_t max_rows) {
  QueryOptions options;
  options.max_rows = max_rows;
  options.timeout = timeout_;
  options.cancelled = cancelled_;
  options.params = params;
  return db_->Execute(sql, options);
}

}  // namespace tw::skills
