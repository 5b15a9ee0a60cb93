#pragma once
// Reads the `--` doc comments of a Perfetto SQL module (libs/trace/stdlib/README.md gives the
// convention): the module's own doc (the comment block that opens the file), and for each
// CREATE PERFETTO TABLE / VIEW / FUNCTION / MACRO the comment block right above it, the comment
// above each of its columns and arguments, and the comment above a scalar function's RETURNS.
// The schema catalogue (`tracewise schema`, the agent's lookup_sql_schema) is built from these.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tw {

struct SqlColumnDoc {
  std::string name;
  std::string type;  // as declared: LONG, TIMESTAMP, JOINID(thread.id), ...
  std::string doc;   // empty when undocumented
};

struct SqlObjectDoc {
  enum class Kind { kTable, kView, kFunction, kTableFunction, kMacro };
  Kind kind = Kind::kView;
  std::string name;
  std::string module;  // the module that defines it ("prelude.tracks", "android.frames.timeline")
  std::string doc;
  std::vector<SqlColumnDoc> columns;  // a table's or view's, or what a table function returns
  std::vector<SqlColumnDoc> args;     // a function's or macro's arguments
  std::string return_type;            // scalar functions and macros
  std::string return_doc;
  // Intrinsic tables (`__intrinsic_<x>`) the body reads: a column without a doc of its own takes
  // the doc of the same-named column of the first of these that has one.
  std::vector<std::string> reads_intrinsic;

  bool is_public() const { return !name.empty() && name[0] != '_'; }
};

struct SqlModuleDoc {
  std::string name;
  std::string doc;
  std::vector<std::string> includes;  // modules it INCLUDEs, in order
  std::vector<SqlObjectDoc> objects;  // in definition order
};

const char* SqlObjectKindName(SqlObjectDoc::Kind kind);

// INVALID_ARGUMENT when a CREATE PERFETTO statement's column or argument list is malformed
// (unbalanced parentheses, a column without a type).
absl::StatusOr<SqlModuleDoc> ParseSqlModuleDocs(std::string_view module_name, std::string_view sql);

}  // namespace tw
