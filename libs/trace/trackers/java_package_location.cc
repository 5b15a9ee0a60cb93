#include "libs/trace/trackers/java_package_location.h"

#include <array>
#include <utility>

namespace tw {
namespace {

constexpr std::string_view kDataApp = "/data/app/";

// Preinstalled apps whose APK path does not name their package (prefix of the path → package).
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kSystemAppPrefixes = {{
    {"/system_ext/priv-app/SystemUIGoogle/SystemUIGoogle.apk", "com.android.systemui"},
    {"/product/priv-app/Phonesky/Phonesky.apk", "com.android.vending"},
    {"/product/app/Maps/Maps.apk", "com.google.android.apps.maps"},
    {"/system_ext/priv-app/NexusLauncherRelease/NexusLauncherRelease.apk",
     "com.google.android.apps.nexuslauncher"},
    {"/product/app/Photos/Photos.apk", "com.google.android.apps.photos"},
    {"/product/priv-app/WellbeingPrebuilt/WellbeingPrebuilt.apk",
     "com.google.android.apps.wellbeing"},
    {"/product/app/PrebuiltGmail/PrebuiltGmail.apk", "com.google.android.gm"},
    {"/product/priv-app/Velvet/Velvet.apk", "com.google.android.googlequicksearchbox"},
    {"/product/app/LatinIMEGooglePrebuilt/LatinIMEGooglePrebuilt.apk",
     "com.google.android.inputmethod.latin"},
    {"/product/app/PrebuiltBugle/PrebuiltBugle.apk", "com.google.android.apps.messaging"},
}};

// Preinstalled apps recognised by a part of their path (in this order).
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kSystemAppInfixes = {{
    {"DevicePersonalizationPrebuilt", "com.google.android.as"},
    {"MatchMaker", "com.google.android.as"},
    {"DeviceIntelligenceNetworkPrebuilt", "com.google.android.as.oss"},
    {"SettingsIntelligenceGooglePrebuilt", "com.google.android.settings.intelligence"},
    {"PrebuiltGmsCore", "com.google.android.gms"},
    {"com.google.android.gms", "com.google.android.gms"},
}};

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// "<package>-<suffix>" from the directory right under /data/app (after a "~~<random>/" level).
PackageFromLocationResult PackageFromDataApp(std::string_view path) {
  std::string_view rest = path.substr(kDataApp.size());
  PackageFromLocationResult error{PackageLocationResult::kParseError, {}};
  if (rest.empty()) return error;
  size_t start = 0;
  if (rest.front() == '~') {
    const size_t slash = rest.find('/');
    if (slash == std::string_view::npos) return error;
    start = slash + 1;
  }
  const size_t end = rest.find('/', start + 1);
  if (end == std::string_view::npos) return error;
  const std::string_view dir = rest.substr(start, end - start);
  const size_t minus = dir.find('-');
  if (minus == std::string_view::npos) return error;
  return {PackageLocationResult::kPackage, std::string(dir.substr(0, minus))};
}

}  // namespace

PackageFromLocationResult PackageFromLocation(std::string_view location) {
  // No real path matches more than one of the system app rules, so their order is free.
  for (const auto& [prefix, package] : kSystemAppPrefixes) {
    if (StartsWith(location, prefix)) {
      return {PackageLocationResult::kPackage, std::string(package)};
    }
  }
  for (const auto& [infix, package] : kSystemAppInfixes) {
    if (location.find(infix) != std::string_view::npos) {
      return {PackageLocationResult::kPackage, std::string(package)};
    }
  }
  if (StartsWith(location, kDataApp)) return PackageFromDataApp(location);
  // A dex file an app's APK had decompressed into memory, e.g. "[anon:dalvik-classes.dex
  // extracted in memory from /data/app/<package>-<suffix>/base.apk]".
  constexpr std::string_view kInMemoryDex = "dex extracted in memory from /data/app/";
  const size_t at = location.find(kInMemoryDex);
  if (at != std::string_view::npos) {
    return PackageFromDataApp(location.substr(at + kInMemoryDex.size() - kDataApp.size()));
  }
  return {};
}

}  // namespace tw
