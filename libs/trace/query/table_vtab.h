#pragma once
// Exposes an in-memory columnar Table to SQLite as an eponymous virtual table named
// `__intrinsic_<table>`. Constraints on `id`, on sorted columns, and equality on any integer or
// string column are answered from the columns themselves (binary search, or a per-column index
// built lazily on first use), so joins over millions of rows stay fast. The plan is chosen by
// estimated selectivity; the constraints it does not use are checked in C++ (RowFilter) so that
// SQLite only sees candidate rows.

#include <sqlite3.h>

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "libs/trace/storage/string_pool.h"
#include "libs/trace/storage/table.h"

namespace tw {

// Owns the lazily built per-column indexes of one table. Tables are immutable once loaded, so an
// index never goes stale.
class TableIndexCache {
 public:
  TableIndexCache(const Table* table, const StringPool* strings)
      : table_(table), strings_(strings) {}
  // Row ids ordered by (value, row) for integer/string column `col`; NULL cells excluded.
  const std::vector<uint32_t>& IndexFor(uint32_t col);
  // Estimated rows per distinct value of column `col` (from a sample), for query planning.
  double RowsPerValue(uint32_t col);
  // Estimated share of rows whose string column `col` matches GLOB `pattern` (from a sample).
  double GlobSelectivity(uint32_t col, const std::string& pattern);
  // Bytes held by the indexes built so far (the trace manager counts them against its budget).
  size_t memory_bytes();

 private:
  const Table* table_;
  const StringPool* strings_;
  std::mutex mu_;
  std::vector<std::unique_ptr<std::vector<uint32_t>>> indexes_;
  std::vector<double> rows_per_value_;  // -1: not estimated yet
  std::map<std::pair<uint32_t, std::string>, double> glob_selectivity_;
};

struct TableVtabContext {
  const Table* table;
  const StringPool* strings;
  std::unique_ptr<TableIndexCache> indexes;
  // For a derived table (derived_tables.h): fills `table`, once, when a statement first
  // refers to it.
  std::function<void()> fill;
  std::once_flag filled;
};

// Registers `__intrinsic_<table.name()>` on `db`. `ctx` must outlive the connection.
absl::Status RegisterTableVtab(sqlite3* db, TableVtabContext* ctx);

}  // namespace tw
