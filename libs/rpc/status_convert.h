#pragma once
// absl::Status <-> grpc::Status with the same code and message, so an error keeps its meaning
// (NOT_FOUND, PERMISSION_DENIED, ...) across a service boundary.

#include <grpcpp/support/status.h>

#include "absl/status/status.h"

namespace tw::rpc {

grpc::Status ToGrpc(const absl::Status& status);
absl::Status FromGrpc(const grpc::Status& status);

}  // namespace tw::rpc
