#include "libs/llm/chat_transport.h"

#include <chrono>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"

namespace tw::llm {
namespace {

using Clock = std::chrono::steady_clock;

// Sleeps up to `ms`, waking early to honour cancellation. False = cancelled.
bool SleepUnlessCancelled(int64_t ms, const StreamCallbacks& callbacks) {
  const Clock::time_point until = Clock::now() + std::chrono::milliseconds(ms);
  while (Clock::now() < until) {
    if (callbacks.is_cancelled && callbacks.is_cancelled()) return false;
    const auto left = until - Clock::now();
    std::this_thread::sleep_for(std::min<Clock::duration>(left, std::chrono::milliseconds(20)));
  }
  return !(callbacks.is_cancelled && callbacks.is_cancelled());
}

bool Is2xx(int status) { return status >= 200 && status < 300; }

}  // namespace

void AddStandardHeaders(const ProviderSettings& settings, AuthStyle default_auth, bool stream,
                        HttpRequest& http) {
  http.headers.push_back({"Content-Type", "application/json"});
  http.headers.push_back({"Accept", stream ? "text/event-stream" : "application/json"});
  if (!settings.api_key.empty()) {
    const AuthStyle auth = settings.auth == AuthStyle::kDefault ? default_auth : settings.auth;
    switch (auth) {
      case AuthStyle::kBearer:
        http.headers.push_back({"Authorization", "Bearer " + settings.api_key});
        break;
      case AuthStyle::kXApiKey: http.headers.push_back({"x-api-key", settings.api_key}); break;
      case AuthStyle::kApiKeyHeader: http.headers.push_back({"api-key", settings.api_key}); break;
      case AuthStyle::kDefault:
      case AuthStyle::kNone: break;
    }
  }
  for (const auto& h : settings.extra_headers) http.headers.push_back(h);
}

TransportSettings TransportFor(const std::string& provider, const ProviderSettings& settings,
                               ConnectionPool* pool) {
  return TransportSettings{provider,         settings.api_key,  settings.connect_timeout_ms,
                           settings.idle_timeout_ms, settings.retry, settings.jitter_seed, pool};
}

std::string JoinUrl(const std::string& base, const std::string& path) {
  std::string out = base;
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out + path;
}

absl::StatusOr<ChatResponse> PostWithRetries(
    const TransportSettings& settings, HttpRequest request, const RequestOptions& options,
    const std::string& model, const StreamCallbacks& callbacks,
    const std::function<std::unique_ptr<ResponseDecoder>()>& make_decoder, AttemptStats* stats) {
  const Clock::time_point deadline =
      Clock::now() + std::chrono::milliseconds(std::max<int64_t>(1, options.timeout_ms));
  std::mt19937_64 rng(settings.jitter_seed != 0
                          ? settings.jitter_seed
                          : static_cast<uint64_t>(Clock::now().time_since_epoch().count()));
  const int max_attempts = std::max(1, settings.retry.max_attempts);
  const auto finish = [&](absl::Status status, int attempts) -> absl::Status {
    if (stats) stats->attempts = attempts;
    return RedactSecrets(status, settings.api_key);
  };

  request.connect_timeout_ms = settings.connect_timeout_ms;
  // A non-streamed answer arrives all at once after the model finished: only the deadline
  // bounds the wait. A stream must keep talking (providers send pings while thinking).
  request.idle_timeout_ms = options.stream ? settings.idle_timeout_ms : 0;
  request.deadline = deadline;
  request.is_cancelled = callbacks.is_cancelled;

  absl::Status last_error;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    std::unique_ptr<ResponseDecoder> decoder = make_decoder();
    if (options.stream) {
      request.on_body = [&decoder](std::string_view bytes) {
        return decoder->OnStreamBytes(bytes);
      };
    } else {
      request.on_body = nullptr;
    }
    absl::StatusOr<HttpResponse> response = HttpPost(request, settings.pool);

    std::optional<int64_t> retry_after;
    bool retryable = false;
    int http_status = 0;
    ProviderError provider_error;
    if (!response.ok()) {
      // The decoder stopped the transfer because the stream reported an error.
      if (decoder->stream_error_status() != 0) {
        http_status = decoder->stream_error_status();
        provider_error = decoder->stream_error();
      } else if (!decoder->decode_error().ok()) {
        last_error = decoder->decode_error();
        retryable = last_error.code() == absl::StatusCode::kUnavailable;
      } else {
        last_error = response.status();
        retryable = IsRetryableTransportError(response.status());
      }
    } else if (!Is2xx(response->status)) {
      http_status = response->status;
      provider_error = ParseProviderError(response->body);
      retry_after = ParseRetryAfterMs(response->Header("retry-after").value_or(""),
                                      response->Header("retry-after-ms").value_or(""));
    } else {
      absl::Status finished = decoder->Finish(*response);
      if (finished.ok()) {
        if (stats) stats->attempts = attempt;
        return decoder->TakeResponse();
      }
      if (decoder->stream_error_status() != 0) {
        http_status = decoder->stream_error_status();
        provider_error = decoder->stream_error();
      } else {
        last_error = finished;
        // A stream that ended early is a broken connection in disguise.
        retryable = finished.code() == absl::StatusCode::kUnavailable;
      }
    }
    if (http_status != 0) {
      retryable = IsRetryableHttpStatus(http_status, provider_error.type);
      last_error = HttpErrorToStatus(settings.provider, model, http_status, provider_error,
                                     retryable ? attempt : 0);
    }

    if (!retryable) return finish(last_error, attempt);
    if (decoder->delivered_output()) {
      return finish(absl::UnavailableError(absl::StrCat(
                        last_error.message(),
                        " (after part of the answer was streamed; not retried)")),
                    attempt);
    }
    if (attempt == max_attempts) {
      if (http_status != 0 || attempt == 1) return finish(last_error, attempt);
      return finish(absl::Status(last_error.code(), absl::StrCat(last_error.message(), " (after ",
                                                                 attempt, " attempts)")),
                    attempt);
    }

    const int64_t wait_ms = BackoffMs(settings.retry, attempt, retry_after, rng);
    if (retry_after && *retry_after > settings.retry.max_retry_after_ms) {
      return finish(absl::Status(last_error.code(),
                                 absl::StrCat(last_error.message(), " (server asked to retry after ",
                                              *retry_after / 1000, " s; not waiting)")),
                    attempt);
    }
    if (Clock::now() + std::chrono::milliseconds(wait_ms) >= deadline) {
      return finish(absl::DeadlineExceededError(absl::StrCat(
                        "deadline of ", options.timeout_ms, " ms reached before retry ", attempt,
                        " could be sent; last error: ", last_error.message())),
                    attempt);
    }
    if (!SleepUnlessCancelled(wait_ms, callbacks)) {
      return finish(absl::CancelledError("request cancelled while waiting to retry"), attempt);
    }
  }
  return finish(last_error, max_attempts);
}

}  // namespace tw::llm
