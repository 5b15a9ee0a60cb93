#pragma once
// A small HTTP POST client over libcurl for the LLM providers: request headers, a streaming body
// callback, connect/idle timeouts, an overall deadline and cancellation. One Post() is one
// attempt; retrying is the caller's (retry_policy.h) decision.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
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

// Keeps finished libcurl handles, and with them their open connections, for the next request
// to the same host: an agent turn then skips the TCP and TLS handshakes. Thread-safe; a request
// that finds no idle handle makes a new one.
class ConnectionPool {
 public:
  ConnectionPool() = default;
  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  void* Acquire();             // a CURL*, reset to default options
  void Release(void* handle);  // back to the pool (or cleaned up when the pool is full)

 private:
  static constexpr size_t kMaxIdle = 4;
  std::mutex mu_;
  std::vector<void*> idle_;
};

// Performs one POST (reusing a pooled connection when `pool` is given). A response with any
// HTTP status is a success here (the status is in the result). Errors: UNAVAILABLE (cannot connect, connection reset or closed mid-body — the
// message says which), DEADLINE_EXCEEDED (deadline or idle timeout), CANCELLED (is_cancelled or
// on_body said stop). Error messages never contain request headers (they carry the API key).
absl::StatusOr<HttpResponse> HttpPost(const HttpRequest& request,
                                      ConnectionPool* pool = nullptr);

}  // namespace tw::llm
