#include "libs/llm/retry_policy.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>

namespace tw::llm {

bool IsRetryableHttpStatus(int status, const std::string& error_type) {
  // The request itself is wrong (or the key): the same request fails the same way again.
  if (status == 400 || status == 401 || status == 403 || status == 404 || status == 413 ||
      status == 422) {
    return false;
  }
  // Quota exhaustion comes back as 429 but waiting does not refill a billing account.
  if (error_type == "insufficient_quota") return false;
  if (error_type == "overloaded_error" || error_type == "rate_limit_error" ||
      error_type == "api_error") {
    return true;
  }
  switch (status) {
    case 408:  // request timeout (server side)
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
    case 529:  // Anthropic: overloaded
      return true;
    default:
      return false;
  }
}

bool IsRetryableTransportError(const absl::Status& status) {
  return status.code() == absl::StatusCode::kUnavailable;
}

std::optional<int64_t> ParseRetryAfterMs(const std::string& retry_after,
                                         const std::string& retry_after_ms) {
  if (!retry_after_ms.empty()) {
    char* end = nullptr;
    double ms = std::strtod(retry_after_ms.c_str(), &end);
    if (end != retry_after_ms.c_str() && *end == '\0' && ms >= 0) return static_cast<int64_t>(ms);
  }
  if (retry_after.empty()) return std::nullopt;
  char* end = nullptr;
  double seconds = std::strtod(retry_after.c_str(), &end);
  if (end != retry_after.c_str() && *end == '\0') {
    if (seconds < 0) return std::nullopt;
    return static_cast<int64_t>(seconds * 1000.0);
  }
  // HTTP date, e.g. "Wed, 21 Oct 2015 07:28:00 GMT".
  std::tm tm{};
  const char* parsed = strptime(retry_after.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (parsed == nullptr) return std::nullopt;
  const std::time_t when = timegm(&tm);
  const std::time_t now = std::time(nullptr);
  return std::max<int64_t>(0, static_cast<int64_t>(when - now) * 1000);
}

int64_t BackoffMs(const RetryPolicy& policy, int retry, std::optional<int64_t> retry_after_ms,
                  std::mt19937_64& rng) {
  if (retry_after_ms) return *retry_after_ms;
  double base = static_cast<double>(policy.initial_backoff_ms) *
                std::pow(policy.multiplier, std::max(0, retry - 1));
  base = std::min(base, static_cast<double>(policy.max_backoff_ms));
  if (policy.jitter > 0) {
    std::uniform_real_distribution<double> spread(1.0 - policy.jitter, 1.0 + policy.jitter);
    base *= spread(rng);
  }
  return std::clamp<int64_t>(static_cast<int64_t>(base), 0, policy.max_backoff_ms);
}

}  // namespace tw::llm
