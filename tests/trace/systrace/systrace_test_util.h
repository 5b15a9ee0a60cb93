#pragma once
// Helpers for the systrace tests: load text through the whole pipeline and read query results
// back as compact "a,b\nc,d\n" strings.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "libs/trace/query/result_format.h"
#include "libs/trace/trace_loader.h"

namespace tw::systrace_test {

// The header atrace writes; it also makes format detection see ftrace text.
inline constexpr std::string_view kHeader =
    "# tracer: nop\n"
    "#\n"
    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |        |      |   ||||       |         |\n";

inline std::unique_ptr<LoadedTrace> Load(std::string_view bytes) {
  auto trace = LoadTraceBytes(bytes);
  EXPECT_TRUE(trace.ok()) << trace.status();
  return trace.ok() ? std::move(*trace) : nullptr;
}

// Rows only (no header), cells as the diff tests print them.
inline std::string Rows(LoadedTrace& trace, std::string_view sql) {
  auto result = trace.Query(sql);
  EXPECT_TRUE(result.ok()) << result.status() << " for " << sql;
  if (!result.ok()) return "<error>";
  std::string out;
  for (const auto& row : result->rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) out += ',';
      out += FormatCsvValue(row[i]);
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

}  // namespace tw::systrace_test
