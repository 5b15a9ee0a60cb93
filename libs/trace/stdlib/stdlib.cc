#include "libs/trace/stdlib/stdlib.h"

#include <algorithm>
#include <cstddef>

namespace tw {

// Generated at build time from the .sql files (embed_sql.cmake), sorted by name.
namespace stdlib_embedded {
extern const SqlModule kModules[];
extern const size_t kModuleCount;
}  // namespace stdlib_embedded

namespace {

std::vector<const SqlModule*>& AllModules() {
  static std::vector<const SqlModule*> modules = [] {
    std::vector<const SqlModule*> out;
    for (size_t i = 0; i < stdlib_embedded::kModuleCount; ++i) {
      out.push_back(&stdlib_embedded::kModules[i]);
    }
    return out;
  }();
  return modules;
}

}  // namespace

void AddSqlModuleForTesting(const SqlModule* module) { AllModules().push_back(module); }

const SqlModule* FindSqlModule(std::string_view name) {
  for (const SqlModule* m : AllModules()) {
    if (m->name == name) return m;
  }
  return nullptr;
}

std::vector<const SqlModule*> SqlModulesWithPrefix(std::string_view prefix) {
  std::vector<const SqlModule*> out;
  for (const SqlModule* m : AllModules()) {
    if (m->name.substr(0, prefix.size()) == prefix) out.push_back(m);
  }
  std::sort(out.begin(), out.end(),
            [](const SqlModule* a, const SqlModule* b) { return a->name < b->name; });
  return out;
}

}  // namespace tw
