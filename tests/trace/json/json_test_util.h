#pragma once
// Helpers for the JSON importer tests: load JSON text through the whole pipeline (format
// detection, importer, sorter, trackers) and read query results back as "a,b\nc,d\n" strings.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "libs/trace/query/result_format.h"
#include "libs/trace/trace_loader.h"

namespace tw::json_test {

inline std::unique_ptr<LoadedTrace> Load(std::string_view json) {
  auto trace = LoadTraceBytes(json);
  EXPECT_TRUE(trace.ok()) << trace.status();
  return trace.ok() ? std::move(*trace) : nullptr;
}

// Rows only (no header): strings unquoted, NULL as [NULL], numbers as the diff tests print
// them (reals with six decimals).
inline std::string Rows(LoadedTrace& trace, std::string_view sql) {
  auto result = trace.Query(sql);
  EXPECT_TRUE(result.ok()) << result.status() << " for " << sql;
  if (!result.ok()) return "<error>";
  std::string out;
  for (const auto& row : result->rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) out += ',';
      if (row[i].is_null()) {
        out += "[NULL]";
      } else {
        out += row[i].type == SqlValue::Type::kString ? row[i].string_value
                                                      : FormatCsvValue(row[i]);
      }
    }
    out += '\n';
  }
  return out;
}

inline int64_t Int(LoadedTrace& trace, std::string_view sql) {
  auto result = trace.Query(sql);
  EXPECT_TRUE(result.ok()) << result.status() << " for " << sql;
  if (!result.ok() || result->rows.empty() || result->rows[0].empty()) return -1;
  return result->rows[0][0].int_value;
}

inline int64_t Stat(LoadedTrace& trace, std::string_view name) {
  return Int(trace, std::string("SELECT IFNULL(SUM(value), 0) FROM stats WHERE name = '") +
                        std::string(name) + "'");
}

}  // namespace tw::json_test
