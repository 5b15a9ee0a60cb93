#pragma once
// trace_processor's older spellings of PerfettoSQL statements, as SQL functions that existing
// queries and metrics still call:
//   CREATE_FUNCTION('f(x INT, ...)', 'INT', 'SELECT ...')  — CREATE OR REPLACE PERFETTO FUNCTION
//   CREATE_VIEW_FUNCTION('f(x INT)', 'a INT, b STRING', 'SELECT ...') — ... RETURNS TABLE(...)
//   IMPORT('time.conversion')                             — INCLUDE PERFETTO MODULE
//   EXPERIMENTAL_MEMOIZE('f')                             — keep f's results by argument
// A function cannot define functions or include modules while the statement that calls it is
// still running, so each call queues what it stands for (and returns NULL); the database runs
// the queue as soon as the calling statement finishes, before the next one.

#include <sqlite3.h>

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace tw {

// The pointer type marking a void function's value (trace_processor's convention: such a
// statement has no output).
inline constexpr char kVoidPointerType[] = "VOID";

struct LegacyStatement {
  enum class Kind { kPerfettoSql, kMemoize };
  Kind kind = Kind::kPerfettoSql;
  std::string text;  // kPerfettoSql: the statement; kMemoize: the function name
};

// The PerfettoSQL statements the legacy calls stand for.
std::string LegacyCreateFunctionStatement(std::string_view prototype, std::string_view return_type,
                                          std::string_view body);
std::string LegacyCreateViewFunctionStatement(std::string_view prototype,
                                              std::string_view columns, std::string_view body);

// Registers the four functions on `db`; their calls append to `*queue` (owned by the caller,
// which must outlive the connection).
absl::Status RegisterLegacyStatementFunctions(sqlite3* db, std::vector<LegacyStatement>* queue);

}  // namespace tw
