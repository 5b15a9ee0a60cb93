#include "services/gateway/http_errors.h"

#include <nlohmann/json.hpp>

namespace tw::gateway {

int HttpStatusFor(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kOk:
      return 200;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kAborted:
    case absl::StatusCode::kAlreadyExists:
      return 409;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kCancelled:
      return 499;
    case absl::StatusCode::kUnimplemented:
      return 501;
    case absl::StatusCode::kUnavailable:
      return 503;
    case absl::StatusCode::kDeadlineExceeded:
      return 504;
    default:
      return 500;
  }
}

std::string StatusCodeName(absl::StatusCode code) {
  // absl's names are "NOT_FOUND" style already, except for OK's.
  return code == absl::StatusCode::kOk ? "OK" : absl::StatusCodeToString(code);
}

std::string ErrorJson(absl::StatusCode code, const std::string& message, int http_status) {
  return nlohmann::json{
      {"error",
       {{"code", StatusCodeName(code)}, {"message", message}, {"http_status", http_status}}}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tw::gateway
