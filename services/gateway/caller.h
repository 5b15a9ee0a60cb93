#pragma once
// Who is calling the gateway. Today every request is the anonymous local user; authentication
// (issue #16: bearer tokens → tenant and role) plugs in as an Authenticator, and the caller
// travels with each downstream call (GatewayContext::NewCall is where its credentials go).

#include <functional>
#include <string>

#include "absl/status/statusor.h"

namespace tw::gateway {

struct Caller {
  std::string subject = "anonymous";
  std::string tenant;        // empty = no tenancy
  std::string role;          // empty = no roles
  std::string bearer_token;  // forwarded downstream: every service checks it again

  // "Bearer <token>", or "" for the anonymous caller.
  std::string Authorization() const { return bearer_token.empty() ? "" : "Bearer " + bearer_token; }
};

// Given the request's Authorization header (empty when absent): the caller, or
// UNAUTHENTICATED / PERMISSION_DENIED.
using Authenticator = std::function<absl::StatusOr<Caller>(const std::string& authorization)>;

// Bearer tokens checked against an auth config (libs/auth), and each tenant's request rate
// (quotas.requests_per_minute: RESOURCE_EXHAUSTED with a retry-after → 429 + Retry-After).
Authenticator AuthenticateWithConfig(const std::string& auth_config_path, absl::Status* error);

inline Authenticator AllowAnonymous() {
  return [](const std::string&) -> absl::StatusOr<Caller> { return Caller{}; };
}

}  // namespace tw::gateway
