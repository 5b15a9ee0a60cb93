#pragma once
// gRPC / absl status codes → HTTP statuses, and the JSON error body every API error has:
// {"error": {"code": "NOT_FOUND", "message": "...", "http_status": 404}}.
//
//   OK 200 · INVALID_ARGUMENT 400 · OUT_OF_RANGE 400 · FAILED_PRECONDITION 409 · ABORTED 409
//   ALREADY_EXISTS 409 · UNAUTHENTICATED 401 · PERMISSION_DENIED 403 · NOT_FOUND 404
//   RESOURCE_EXHAUSTED 429 (413 for request bodies over a limit) · CANCELLED 499
//   UNIMPLEMENTED 501 · UNAVAILABLE 503 · DEADLINE_EXCEEDED 504 · UNKNOWN, INTERNAL, DATA_LOSS 500

#include <string>

#include "absl/status/status.h"

namespace tw::gateway {

int HttpStatusFor(absl::StatusCode code);
// The canonical upper-case name, e.g. "NOT_FOUND".
std::string StatusCodeName(absl::StatusCode code);
std::string ErrorJson(absl::StatusCode code, const std::string& message, int http_status);

}  // namespace tw::gateway
