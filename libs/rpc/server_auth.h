#pragma once
// Authentication and roles on the server side of every gRPC service. Each handler starts with
// `Check(context, permission)`: the call's `authorization` metadata is verified against the
// auth config (libs/auth) and the caller's role must allow the permission; UNAUTHENTICATED or
// PERMISSION_DENIED otherwise. With auth off every caller is the anonymous identity (no tenant,
// admin rights), so services without --auth-config behave exactly as before.
//
// Identity travels downstream by forwarding the caller's own bearer token (CallerAuthorization)
// on the calls a service makes for it: every service verifies it again with the same config, so
// trace-query enforces tenancy itself rather than trusting the orchestrator's word.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "libs/auth/authenticator.h"
#include "libs/auth/identity.h"

namespace grpc {
class ServerContext;
class Status;
}  // namespace grpc

namespace tw::rpc {

class ServerAuth {
 public:
  ServerAuth() = default;  // auth off
  explicit ServerAuth(const auth::AuthConfig& config)
      : authenticator_(std::make_shared<auth::Authenticator>(config)) {}
  bool enabled() const { return authenticator_ != nullptr; }

  absl::StatusOr<auth::Identity> Authenticate(const grpc::ServerContext* context) const;
  absl::StatusOr<auth::Identity> Check(const grpc::ServerContext* context,
                                       auth::Permission permission) const;
  // The `authorization` metadata of the call ("" when absent), to forward downstream.
  static std::string CallerAuthorization(const grpc::ServerContext* context);

 private:
  std::shared_ptr<auth::Authenticator> authenticator_;
};

// absl::Status → grpc::Status, also setting `retry-after` trailing metadata (seconds) when the
// status is a quota refusal that carries one.
grpc::Status ToGrpcWithRetry(grpc::ServerContext* context, const absl::Status& status);

}  // namespace tw::rpc
