#pragma once
// When and how long to wait before retrying an LLM request. Retried: connection failures,
// 429 (rate limited), 500/502/503/504/529 and "overloaded" errors. Never retried: 400, 401,
// 403, 404, 413, 422 — the same request would fail the same way.

#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "absl/status/status.h"

namespace tw::llm {

struct RetryPolicy {
  int max_attempts = 4;             // first try included
  int64_t initial_backoff_ms = 1000;
  int64_t max_backoff_ms = 30'000;
  double multiplier = 2.0;
  double jitter = 0.25;             // +-25% randomisation so many clients do not retry in lockstep
  // A retry-after longer than this gives up rather than sleeping (the caller has a deadline).
  int64_t max_retry_after_ms = 120'000;
};

// Is an HTTP error status worth retrying? `error_type` is the provider's error type when the
// body carried one ("overloaded_error", "rate_limit_error", "insufficient_quota", ...).
bool IsRetryableHttpStatus(int status, const std::string& error_type);

// Is a transport error (from HttpPost) worth retrying? Connection failures are; deadlines and
// cancellations are not (the caller's time is up or the caller asked to stop).
bool IsRetryableTransportError(const absl::Status& status);

// Parses a Retry-After header: delta-seconds ("2", "1.5") or an HTTP date. Also accepts the
// milliseconds form of `retry-after-ms`. Returns milliseconds to wait, or nullopt if unparsable.
std::optional<int64_t> ParseRetryAfterMs(const std::string& retry_after,
                                         const std::string& retry_after_ms = "");

// The wait before retry number `retry` (1 = the first retry): the server's retry-after when
// given, else exponential backoff with jitter, capped at max_backoff_ms.
int64_t BackoffMs(const RetryPolicy& policy, int retry, std::optional<int64_t> retry_after_ms,
                  std::mt19937_64& rng);

}  // namespace tw::llm
