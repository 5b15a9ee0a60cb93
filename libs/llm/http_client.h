#pragma once
// A small HTTP POST client over libcurl for the LLM providers: request headers, a streaming body
// callback, connect/idle timeouts, an overall deadline and cancellation. One Post() is one
// attempt; retrying is the caller's (retry_policy.h) decision.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace tw::llm {

struct HttpRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // name, value
  std::string body;
  int64_t connect_timeout_ms = 10'000;
  // The longest silence allowed between two reads of the response (a hung server).
  int64_t idle_timeout_ms = 120'000;
  // Absolute deadline for this attempt; nullopt = none beyond the idle timeout.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  // Receives the body of a 2xx response as it arrives. Returning false aborts the transfer
  // (the result is then CANCELLED). Non-2xx bodies are collected in HttpResponse::body instead,
  // since they are error documents to parse, not streams.
  std::function<bool(std::string_view chunk)> on_body;
  // Polled while waiting for and between reads (at least about once a second).
  std::function<bool()> is_cancelled;
};

struct HttpResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased; the last value wins
  std::string body;  // the whole body when on_body was not set or the status is not 2xx
  int64_t body_bytes = 0;

  std::optional<std::string> Header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    if (it == headers.end()) return std::nullopt;
    return it->second;
  }
};

// Performs one POST. A response with any HTTP status is a success here (the status is in the
// result). Errors: UNAVAILABLE (cannot connect, connection reset or closed mid-body — the
// message says which), DEADLINE_EXCEEDED (deadline or idle timeout), CANCELLED (is_cancelled or
// on_body said stop). Error messages never contain request headers (they carry the API key).
absl::StatusOr<HttpResponse> HttpPost(const HttpRequest& request);

}  // namespace tw::llm
