#pragma once
// The Android package a Java class or frame belongs to, read from the file it was loaded from
// (a heap graph class's location, a frame's mapping): an installed app's APK under /data/app
// ("/data/app/<package>-<suffix>/base.apk", or since R "/data/app/~~<random>/<package>-<suffix>/
// base.apk", also inside "... dex extracted in memory from /data/app/..."), or one of the
// preinstalled system apps whose path does not name their package. Deobfuscation mappings are
// per package, so this decides which mapping applies.

#include <optional>
#include <string>
#include <string_view>

namespace tw {

enum class PackageLocationResult {
  kPackage,      // the package was found
  kNotAnApp,     // the path is not one that names a package
  kParseError,   // an app path (/data/app/...) that could not be read (a stat-worthy error)
};

struct PackageFromLocationResult {
  PackageLocationResult result = PackageLocationResult::kNotAnApp;
  std::string package;
};

PackageFromLocationResult PackageFromLocation(std::string_view location);

}  // namespace tw
