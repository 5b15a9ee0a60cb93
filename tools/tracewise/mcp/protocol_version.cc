#include "tools/tracewise/mcp/protocol_version.h"

#include <algorithm>

namespace tw::mcp {
namespace {

const std::vector<std::string>& LegacyVersions() {
  static const std::vector<std::string> kVersions = {kLatestLegacyVersion, "2025-06-18",
                                                     "2025-03-26", "2024-11-05"};
  return kVersions;
}

}  // namespace

const std::vector<std::string>& SupportedVersions() {
  static const std::vector<std::string> kAll = [] {
    std::vector<std::string> all = {kModernVersion};
    for (const auto& v : LegacyVersions()) all.push_back(v);
    return all;
  }();
  return kAll;
}

bool IsModernVersion(const std::string& version) { return version == kModernVersion; }

bool IsLegacyVersion(const std::string& version) {
  const auto& legacy = LegacyVersions();
  return std::find(legacy.begin(), legacy.end(), version) != legacy.end();
}

std::string NegotiateLegacyVersion(const std::string& requested) {
  return IsLegacyVersion(requested) ? requested : kLatestLegacyVersion;
}

}  // namespace tw::mcp
