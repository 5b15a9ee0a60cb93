#pragma once
// Reads an Android build fingerprint,
//   $(BRAND)/$(PRODUCT)/$(DEVICE):$(VERSION.RELEASE)/$(ID)/$(VERSION.INCREMENTAL):$(TYPE)/$(TAGS)
// (e.g. google/coral/coral:12/SP1A.210812.015/7679548:userdebug/dev-keys), for the facts
// trace_processor derives from it when system_info does not state them.

#include <optional>
#include <string>
#include <string_view>

namespace tw {

struct AndroidFingerprint {
  std::optional<int> sdk_version;  // from VERSION.RELEASE, when it is a known release
  std::string incremental;         // VERSION.INCREMENTAL
};

// nullopt if the fingerprint does not have the CDD shape.
std::optional<AndroidFingerprint> ParseAndroidFingerprint(std::string_view fingerprint);

// The API level of an Android release name ("12" → 31, "8.1" → 27); nullopt if unknown.
std::optional<int> SdkVersionOfRelease(std::string_view release);

}  // namespace tw
