#pragma once
// The registry of SQL modules that `INCLUDE PERFETTO MODULE <name>;` can load. Modules carry
// trace_processor's standard-library names (e.g. "android.startup.startups") so SQL written for
// Perfetto includes them unchanged; their SQL is our own.

#include <string_view>
#include <vector>

namespace tw {

struct SqlModule {
  std::string_view name;  // dotted, e.g. "slices.with_context"
  std::string_view sql;   // Perfetto SQL; may INCLUDE other modules
};

// The module called `name`, or null.
const SqlModule* FindSqlModule(std::string_view name);

// Modules named "prelude.<x>" define built-ins trace_processor has without any INCLUDE; the
// database includes every one of them when it opens (SqlModulesWithPrefix("prelude.")).

// Every module whose name starts with `prefix` (pass "android." for `android.*`, "" for all),
// sorted by name so wildcard includes run in a stable order.
std::vector<const SqlModule*> SqlModulesWithPrefix(std::string_view prefix);

// Tests only: adds `module` (which must outlive its use) to the registry. Not thread-safe; call
// before opening databases.
void AddSqlModuleForTesting(const SqlModule* module);

}  // namespace tw
