#pragma once
// trace_processor's perfetto_table_info(table_name): one row per column of a table made by
// CREATE PERFETTO TABLE, saying how trace_processor would store it — id, name, col_type, nullable,
// sorted (table_name is the hidden argument). The facts come from the table's values:
//   col_type  string / double, or for integers: id (non-NULL and equal to the row number),
//             uint32, int32, int64 (the smallest range holding every value); all-NULL: uint32;
//   nullable  0 without NULLs, 1 with (trace_processor's sparse-null storage);
//   sorted    0 id-sorted (the row number), 1 set-id-sorted (each value the row number or the
//             previous value), 2 sorted (non-decreasing), 3 unsorted (or any NULL);
// and a last row for the `_auto_id` column every such table carries (id, 0, 0).
// Unknown names (and views) are an error: "Perfetto table 'x' not found."

#include <sqlite3.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tw {

struct TableColumnInfo {
  std::string name;
  std::string col_type;
  int nullable = 0;
  int sorted = 3;
};

absl::StatusOr<std::vector<TableColumnInfo>> DescribeTable(sqlite3* db, const std::string& table);

absl::Status RegisterTableInfoFunction(sqlite3* db);

}  // namespace tw
