#include "libs/common/resource_dir.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace tw {

std::string FindResourceDir(const char* env_var, const std::string& name, const std::string& marker) {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv(env_var); env && *env) return env;
  std::error_code ec;
  std::vector<fs::path> starts = {fs::current_path(ec)};
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) starts.push_back(exe.parent_path());
  for (fs::path dir : starts) {
    for (int depth = 0; depth < 6 && !dir.empty(); ++depth) {
      if (fs::exists(dir / name / marker, ec)) return (dir / name).string();
      if (dir == dir.parent_path()) break;
      dir = dir.parent_path();
    }
  }
  return name;
}

}  // namespace tw
