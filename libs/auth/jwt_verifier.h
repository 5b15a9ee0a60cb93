#pragma once
// Bearer JWTs (RFC 7519) signed HS256 or RS256, verified with Debian's libjwt.
//
// The algorithm is pinned per key: a token is tried only against configured keys of the
// algorithm its header names (and of its `kid`, when both name one), so `alg: none` and the
// HS256-with-the-RSA-public-key confusion are refused before any signature check. After the
// signature, the claims are checked here: `exp` is required, `nbf` and `iat` respected (with
// the configured leeway), issuer and audience when configured, and the tenant / role / subject
// claims must be present strings.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/auth/auth_config.h"
#include "libs/auth/identity.h"

namespace tw::auth {

class JwtVerifier {
 public:
  explicit JwtVerifier(JwtSettings settings) : settings_(std::move(settings)) {}
  bool configured() const { return !settings_.keys.empty(); }
  // UNAUTHENTICATED with a short reason ("token expired", "bad signature", ...).
  absl::StatusOr<Identity> Verify(std::string_view token, absl::Time now) const;

 private:
  JwtSettings settings_;
};

// Signs a token (tests, `tracewise auth token`): `claims_json` is the payload object.
absl::StatusOr<std::string> SignJwt(JwtAlgorithm alg, const std::string& key_material,
                                    const std::string& claims_json, const std::string& kid = "");

}  // namespace tw::auth
