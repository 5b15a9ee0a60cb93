#pragma once
// Bearer JWTs (RFC 7519) signed HS256 or RS256, verified with Debian's libjwt.
//
// The algorithm is pinned per key: a token is tried only against configured keys of the
// algorithm its header names (and of its `kid`, when both name one), so `alg: none` and the
// HS256-with-the-RSA-public-key confusion are refused before any signature check. After the
// signature, the claims are checked here: `exp` is required, `nbf` and `iat` respected (with
// the configured leeway), issuer and audience when configured, and the tenant / role / subject
// claims must be present strings.

#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/auth/auth_config.h"
#include "libs/auth/identity.h"

namespace tw::auth {

class JwtVerifier {
 public:
  explicit JwtVerifier(JwtSettings settings) : settings_(std::move(settings)) {}
  JwtVerifier(const JwtVerifier& other) : settings_(other.settings_) {}
  bool configured() const { return !settings_.keys.empty(); }
  // UNAUTHENTICATED with a short reason ("token expired", "bad signature", ...). A token verified
  // once is remembered until it expires (at most kCacheSeconds), so a client sending the same
  // token on every call pays for the signature check once (RS256 costs ~0.4 ms with libjwt).
  absl::StatusOr<Identity> Verify(std::string_view token, absl::Time now) const;

  static constexpr int64_t kCacheSeconds = 300;
  static constexpr size_t kCacheEntries = 4096;

 private:
  absl::StatusOr<Identity> VerifyUncached(std::string_view token, absl::Time now,
                                          int64_t* expires) const;
  struct Cached {
    Identity identity;
    int64_t valid_until = 0;  // Unix seconds: min(exp + leeway, verified + kCacheSeconds)
  };
  JwtSettings settings_;
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, Cached> cache_;
};

// Signs a token (tests, `tracewise auth token`): `claims_json` is the payload object.
absl::StatusOr<std::string> SignJwt(JwtAlgorithm alg, const std::string& key_material,
                                    const std::string& claims_json, const std::string& kid = "");

}  // namespace tw::auth
