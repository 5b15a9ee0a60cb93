#pragma once
// `Authorization: Bearer <token>` → Identity. The token is a static API key (looked up by its
// SHA-256 among the configured hashes) or a JWT (three dot-separated parts). Failures are
// UNAUTHENTICATED and say why in general terms — never which tenant or key almost matched.

#include <memory>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/auth/auth_config.h"
#include "libs/auth/identity.h"
#include "libs/auth/jwt_verifier.h"

namespace tw::auth {

class Authenticator {
 public:
  explicit Authenticator(const AuthConfig& config);

  // `authorization` is the header's value ("Bearer X"); empty when the caller sent none.
  absl::StatusOr<Identity> Authenticate(std::string_view authorization,
                                        absl::Time now = absl::Now()) const;
  // The bare token of an `Authorization` value ("" when it is not a bearer token).
  static std::string_view BearerToken(std::string_view authorization);

 private:
  absl::flat_hash_map<std::string, ApiKeyEntry> keys_;  // by hash
  JwtVerifier jwt_;
};

}  // namespace tw::auth
