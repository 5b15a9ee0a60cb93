#include "libs/auth/authenticator.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "libs/auth/api_key.h"

namespace tw::auth {

Authenticator::Authenticator(const AuthConfig& config) : jwt_(config.jwt) {
  for (const ApiKeyEntry& key : config.api_keys) keys_[key.hash] = key;
}

std::string_view Authenticator::BearerToken(std::string_view authorization) {
  constexpr std::string_view kScheme = "bearer ";
  if (authorization.size() <= kScheme.size()) return {};
  const std::string scheme = absl::AsciiStrToLower(
      absl::string_view(authorization.data(), kScheme.size()));
  if (scheme != kScheme) return {};
  std::string_view token = authorization.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  return token;
}

absl::StatusOr<Identity> Authenticator::Authenticate(std::string_view authorization,
                                                     absl::Time now) const {
  if (authorization.empty()) {
    return absl::UnauthenticatedError("authentication required: send 'authorization: Bearer <token>'");
  }
  const std::string_view token = BearerToken(authorization);
  if (token.empty()) return absl::UnauthenticatedError("authorization must be 'Bearer <token>'");
  if (std::count(token.begin(), token.end(), '.') == 2) return jwt_.Verify(token, now);
  // The hash is looked up, not compared byte by byte against each stored one: a key that is
  // not configured costs the same as any other.
  auto it = keys_.find(HashApiKey(token));
  if (it == keys_.end()) return absl::UnauthenticatedError("invalid bearer token: unknown API key");
  Identity id;
  id.method = "api_key";
  id.tenant = it->second.tenant;
  id.role = it->second.role;
  id.key_id = ApiKeyId(it->second.hash);
  id.subject = it->second.subject.empty() ? "key:" + id.key_id : it->second.subject;
  return id;
}

}  // namespace tw::auth
