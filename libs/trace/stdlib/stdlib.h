#pragma once
// The registry of SQL modules that `INCLUDE PERFETTO MODULE <name>;` can load. Every module is a
// .sql file under this folder, embedded at build time (embed_sql.cmake); its name is its path
// with dots (android/frames/timeline.sql is "android.frames.timeline"), trace_processor's
// standard-library names, so Perfetto SQL includes them unchanged. The SQL is our own.

#include <string_view>
#include <vector>

namespace tw {

struct SqlModule {
  std::string_view name;  // dotted, e.g. "slices.with_context"
  std::string_view path;  // under libs/trace/stdlib, e.g. "slices/with_context.sql"
  std::string_view sql;   // Perfetto SQL; may INCLUDE other modules
};

// The module called `name`, or null.
const SqlModule* FindSqlModule(std::string_view name);

// Modules named "prelude.<x>" (prelude/*.sql) define what trace_processor has without any
// INCLUDE (the public views over the intrinsic tables, built-in functions): the database
// includes every one of them when it opens.

// Every module whose name starts with `prefix` (pass "android." for `android.*`, "" for all),
// sorted by name so wildcard includes run in a stable order.
std::vector<const SqlModule*> SqlModulesWithPrefix(std::string_view prefix);

// Tests only: adds `module` (which must outlive its use) to the registry. Not thread-safe; call
// before opening databases.
void AddSqlModuleForTesting(const SqlModule* module);

}  // namespace tw
