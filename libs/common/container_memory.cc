#include "libs/common/container_memory.h"

#include <fstream>
#include <sstream>

namespace tw {
namespace {

std::optional<std::string> ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  return line;
}

// A limit file's value: bytes, or nullopt for "max" / unreadable / v1's "unlimited" (a page
// rounded 2^63 - 1).
std::optional<int64_t> ParseLimit(const std::optional<std::string>& text) {
  if (!text || text->empty() || *text == "max") return std::nullopt;
  try {
    size_t used = 0;
    const unsigned long long v = std::stoull(*text, &used);
    if (used != text->size() || v == 0 || v >= (1ULL << 62)) return std::nullopt;
    return static_cast<int64_t>(v);
  } catch (...) {
    return std::nullopt;
  }
}

std::string Join(const std::string& root, const std::string& path) {
  if (root.empty() || root == "/") return path;
  return (root.back() == '/' ? root.substr(0, root.size() - 1) : root) + path;
}

// The process's cgroup path for the v2 hierarchy ("0::/kubepods/.../container") or, with
// `v1_controller`, for that v1 controller ("4:memory:/docker/..."); "" when absent.
std::string OwnCgroupPath(const std::string& root, const std::string& v1_controller = "") {
  std::ifstream in(Join(root, "/proc/self/cgroup"));
  std::string line;
  while (std::getline(in, line)) {
    const size_t a = line.find(':');
    const size_t b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    if (v1_controller.empty() ? controllers.empty()
                              : ("," + controllers + ",").find("," + v1_controller + ",") !=
                                    std::string::npos) {
      return line.substr(b + 1);
    }
  }
  return "";
}

// The tightest limit in `file` from the cgroup at `path` up to the hierarchy's root: the kernel
// enforces every ancestor's limit.
std::optional<int64_t> TightestUpwards(const std::string& root, const std::string& mount,
                                       std::string path, const std::string& file) {
  std::optional<int64_t> tightest;
  auto consider = [&](const std::string& dir) {
    auto limit = ParseLimit(ReadFirstLine(Join(root, mount + dir + "/" + file)));
    if (limit && (!tightest || *limit < *tightest)) tightest = limit;
  };
  while (!path.empty() && path != "/") {
    consider(path);
    const size_t slash = path.rfind('/');
    path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
  }
  consider("");  // the mount's root (inside a cgroup namespace, our own cgroup)
  return tightest;
}

}  // namespace

std::optional<int64_t> ContainerMemoryLimitBytes(const std::string& root) {
  // cgroup v2 (the unified hierarchy at /sys/fs/cgroup), then v1's memory controller.
  if (auto v2 = TightestUpwards(root, "/sys/fs/cgroup", OwnCgroupPath(root), "memory.max")) return v2;
  return TightestUpwards(root, "/sys/fs/cgroup/memory", OwnCgroupPath(root, "memory"),
                         "memory.limit_in_bytes");
}

int64_t BudgetFromLimit(int64_t limit_bytes, double fraction) {
  return static_cast<int64_t>(static_cast<double>(limit_bytes) * fraction);
}

}  // namespace tw
