#include "libs/trace/store/query_backend.h"

#include "absl/strings/str_cat.h"
#include "libs/trace/store/trace_manager.h"

namespace tw {

absl::StatusOr<QueryResult> LocalQueryBackend::Query(const BackendQuery& query) {
  auto trace = manager_->Acquire(query.trace_id);
  if (!trace.ok()) return trace.status();
  QueryOptions options;
  options.timeout = query.timeout;
  options.max_rows = query.max_rows;
  options.cancelled = query.cancelled;
  options.params = query.params;
  options.stream = query.stream;
  auto result = (*trace)->db().Execute(query.sql, options);
  // A query can leave the trace bigger (indexes it built, modules it included).
  manager_->Recount(query.trace_id, **trace);
  return result;
}

absl::StatusOr<std::vector<TableColumns>> LocalQueryBackend::GetSchema(const std::string& trace_id) {
  auto trace = manager_->Acquire(trace_id);
  if (!trace.ok()) return trace.status();
  TraceDatabase& db = (*trace)->db();
  auto tables = db.ListTablesAndViews();
  if (!tables.ok()) return tables.status();
  std::vector<TableColumns> out;
  for (const auto& row : tables->rows) {
    if (row.empty() || row[0].type != SqlValue::Type::kString) continue;
    const std::string& name = row[0].string_value;
    // Names come from the engine's own catalogue, so quoting them is enough.
    auto columns = db.Execute(absl::StrCat("SELECT * FROM \"", name, "\" LIMIT 0"));
    if (!columns.ok()) continue;  // a view whose module is not included yet
    out.push_back({name, columns->columns});
  }
  return out;
}

}  // namespace tw
