#include "libs/trace/importers/proto/android_fingerprint.h"

#include <utility>

namespace tw {

std::optional<int> SdkVersionOfRelease(std::string_view release) {
  // S and T previews and releases are reported by their letter; both count as S (31), as in
  // trace_processor.
  if (!release.empty() && (release[0] == 'S' || release[0] == 'T')) return 31;
  // Release → API level, per the Android CDD.
  static constexpr std::pair<std::string_view, int> kReleases[] = {
      {"12", 31},    {"11", 30},    {"10", 29},    {"9", 28},     {"8.1", 27},
      {"8.0", 26},   {"7.1", 25},   {"7.0", 24},   {"6.0", 23},   {"5.1", 22},
      {"5.1.1", 22}, {"5.0", 21},   {"5.0.1", 21}, {"5.0.2", 21},
  };
  for (const auto& [name, level] : kReleases) {
    if (release == name) return level;
  }
  return std::nullopt;
}

std::optional<AndroidFingerprint> ParseAndroidFingerprint(std::string_view fp) {
  const size_t colon = fp.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const size_t release_slash = fp.find('/', colon);
  if (release_slash == std::string_view::npos) return std::nullopt;
  const size_t id_slash = fp.find('/', release_slash + 1);
  if (id_slash == std::string_view::npos) return std::nullopt;
  const size_t incremental_colon = fp.find(':', id_slash);
  if (incremental_colon == std::string_view::npos) return std::nullopt;
  AndroidFingerprint out;
  out.sdk_version = SdkVersionOfRelease(fp.substr(colon + 1, release_slash - colon - 1));
  out.incremental = std::string(fp.substr(id_slash + 1, incremental_colon - id_slash - 1));
  return out;
}

}  // namespace tw
