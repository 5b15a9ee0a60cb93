#include "libs/common/units.h"

#include <cstdlib>

#include "absl/strings/str_format.h"

namespace tw {

std::string FormatDurationNs(int64_t ns) {
  const int64_t abs_ns = ns < 0 ? -ns : ns;
  if (abs_ns >= 1000000000) return absl::StrFormat("%.3f s", static_cast<double>(ns) / 1e9);
  if (abs_ns >= 1000000) return absl::StrFormat("%.3f ms", static_cast<double>(ns) / 1e6);
  if (abs_ns >= 1000) return absl::StrFormat("%.3f us", static_cast<double>(ns) / 1e3);
  return absl::StrFormat("%d ns", ns);
}

std::string FormatBytes(int64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (bytes >= (int64_t{1} << 30)) return absl::StrFormat("%.2f GiB", b / (1 << 30));
  if (bytes >= (int64_t{1} << 20)) return absl::StrFormat("%.2f MiB", b / (1 << 20));
  if (bytes >= (int64_t{1} << 10)) return absl::StrFormat("%.1f KiB", b / (1 << 10));
  return absl::StrFormat("%d B", bytes);
}

}  // namespace tw
