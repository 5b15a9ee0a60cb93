#pragma once
// Static API keys. A key is 32 random bytes (so an unsalted SHA-256 of it cannot be reversed
// by guessing), printed once as `twk_<base64url>`; the config stores only `sha256:<hex>` of
// the whole key string, and a short public id (the hash's first 12 hex digits) that names the
// key in the audit log and in `auth list` without revealing it.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tw::auth {

inline constexpr char kApiKeyPrefix[] = "twk_";

// A new key from the system's CSPRNG; INTERNAL if it has no entropy to give.
absl::StatusOr<std::string> GenerateApiKey();
// "sha256:<64 hex>" of `key`.
std::string HashApiKey(std::string_view key);
// The public id of a stored hash ("sha256:abcd..." → "abcd...", 12 hex digits).
std::string ApiKeyId(std::string_view stored_hash);
// Constant-time comparison of two equally long strings (false when lengths differ).
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace tw::auth
