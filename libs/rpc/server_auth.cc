#include "libs/rpc/server_auth.h"

#include <grpcpp/grpcpp.h>

#include "absl/strings/str_cat.h"
#include "libs/auth/quotas.h"
#include "libs/rpc/status_convert.h"

namespace tw::rpc {

std::string ServerAuth::CallerAuthorization(const grpc::ServerContext* context) {
  const auto& metadata = context->client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) return "";
  return std::string(it->second.data(), it->second.size());
}

absl::StatusOr<auth::Identity> ServerAuth::Authenticate(const grpc::ServerContext* context) const {
  if (!authenticator_) return auth::AnonymousIdentity();
  const auto& metadata = context->client_metadata();
  if (metadata.count("authorization") > 1) {
    return absl::UnauthenticatedError("more than one authorization header");
  }
  return authenticator_->Authenticate(CallerAuthorization(context));
}

absl::StatusOr<auth::Identity> ServerAuth::Check(const grpc::ServerContext* context,
                                                 auth::Permission permission) const {
  auto identity = Authenticate(context);
  if (!identity.ok()) return identity.status();
  if (absl::Status allowed = identity->Require(permission); !allowed.ok()) return allowed;
  return identity;
}

grpc::Status ToGrpcWithRetry(grpc::ServerContext* context, const absl::Status& status) {
  if (auto retry = auth::RetryAfterSeconds(status); retry && context != nullptr) {
    context->AddTrailingMetadata("retry-after", absl::StrCat(*retry));
  }
  return ToGrpc(status);
}

}  // namespace tw::rpc
