#include "libs/skills/trace_database_runner.h"

#include <sqlite3.h>

#include <chrono>

#include "absl/strings/str_cat.h"
#include "libs/trace/query/perfetto_sql.h"
#include "libs/trace/stdlib/stdlib.h"

namespace tw::skills {
namespace {

SqlValue ReadCell(sqlite3_stmt* stmt, int col) {
  switch (sqlite3_column_type(stmt, col)) {
    case SQLITE_INTEGER:
      return SqlValue::Int(sqlite3_column_int64(stmt, col));
    case SQLITE_FLOAT:
      return SqlValue::Double(sqlite3_column_double(stmt, col));
    case SQLITE_NULL:
      return SqlValue::Null();
    default: {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
      return SqlValue::String(
          p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt, col))) : std::string());
    }
  }
}

int Bind(sqlite3_stmt* stmt, int index, const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kNull:
      return sqlite3_bind_null(stmt, index);
    case SqlValue::Type::kInt:
      return sqlite3_bind_int64(stmt, index, v.int_value);
    case SqlValue::Type::kDouble:
      return sqlite3_bind_double(stmt, index, v.double_value);
    case SqlValue::Type::kString:
      return sqlite3_bind_text(stmt, index, v.string_value.data(),
                               static_cast<int>(v.string_value.size()), SQLITE_TRANSIENT);
  }
  return SQLITE_MISUSE;
}

}  // namespace

bool TraceDatabaseRunner::HasModule(std::string_view name) { return FindSqlModule(name) != nullptr; }

absl::StatusOr<QueryResult> TraceDatabaseRunner::Query(std::string_view sql,
                                                       const BoundParams& params,
                                                       int64_t max_rows) {
  QueryOptions options;
  options.max_rows = max_rows;
  if (params.empty()) return db_->Execute(sql, options);

  const std::vector<SqlStatementText> statements = SplitSqlStatements(sql);
  if (statements.empty()) return QueryResult{};
  for (size_t i = 0; i + 1 < statements.size(); ++i) {
    auto r = db_->Execute(statements[i].sql);
    if (!r.ok()) return r.status();
  }
  const std::string_view last = statements.back().sql;
  const auto start = std::chrono::steady_clock::now();
  sqlite3* conn = db_->raw_connection();
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(conn, last.data(), static_cast<int>(last.size()), &stmt, nullptr) !=
      SQLITE_OK) {
    absl::Status st = absl::InvalidArgumentError(sqlite3_errmsg(conn));
    sqlite3_finalize(stmt);
    return st;
  }
  if (!stmt) return QueryResult{};
  for (const auto& [name, value] : params) {
    const int index = sqlite3_bind_parameter_index(stmt, absl::StrCat(":", name).c_str());
    if (index == 0) continue;  // not used by the last statement
    if (Bind(stmt, index, value) != SQLITE_OK) {
      absl::Status st = absl::InvalidArgumentError(sqlite3_errmsg(conn));
      sqlite3_finalize(stmt);
      return st;
    }
  }
  QueryResult result;
  const int ncols = sqlite3_column_count(stmt);
  for (int i = 0; i < ncols; ++i) {
    const char* n = sqlite3_column_name(stmt, i);
    result.columns.emplace_back(n ? n : "");
  }
  for (;;) {
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      absl::Status st = (rc & 0xff) == SQLITE_AUTH
                            ? absl::PermissionDeniedError(sqlite3_errmsg(conn))
                            : absl::InvalidArgumentError(sqlite3_errmsg(conn));
      sqlite3_finalize(stmt);
      return st;
    }
    if (max_rows >= 0 && static_cast<int64_t>(result.rows.size()) >= max_rows) {
      result.truncated = true;
      break;
    }
    std::vector<SqlValue> row;
    row.reserve(static_cast<size_t>(ncols));
    for (int i = 0; i < ncols; ++i) row.push_back(ReadCell(stmt, i));
    result.rows.push_back(std::move(row));
  }
  sqlite3_finalize(stmt);
  result.statement_count = static_cast<int>(statements.size());
  result.elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  return result;
}

}  // namespace tw::skills
