#pragma once
// The attempt loop both providers share: POST, decode (streamed or whole), and on a retryable
// failure back off and try again until the attempts or the deadline run out. Provider-specific
// work lives in a ResponseDecoder; this file knows nothing about either wire format.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "libs/llm/http_client.h"
#include "libs/llm/llm_provider.h"
#include "libs/llm/provider_errors.h"
#include "libs/llm/provider_settings.h"
#include "libs/llm/retry_policy.h"

namespace tw::llm {

// Decodes one attempt's response. A new decoder is made for every attempt. The base class
// holds what the attempt loop needs to know; subclasses fill it in.
class ResponseDecoder {
 public:
  virtual ~ResponseDecoder() = default;
  // A piece of a streamed 2xx body. Returning false stops the transfer (after recording an
  // error in stream_error_* or decode_error_).
  virtual bool OnStreamBytes(std::string_view bytes) = 0;
  // The transfer completed: for streams check that the stream finished properly; otherwise
  // parse the whole body.
  virtual absl::Status Finish(const HttpResponse& response) = 0;
  virtual ChatResponse TakeResponse() = 0;

  // An error the provider reported inside a 2xx response (Anthropic `event: error`, an OpenAI
  // chunk with "error"), as the equivalent HTTP status. 0 = none.
  int stream_error_status() const { return stream_error_status_; }
  const ProviderError& stream_error() const { return stream_error_; }
  // The response could not be decoded (malformed event, stream ended early): UNAVAILABLE is
  // retried like a broken connection.
  const absl::Status& decode_error() const { return decode_error_; }
  // True once any callback has seen output: a retry would repeat it, so the attempt is final.
  bool delivered_output() const { return delivered_output_; }

 protected:
  int stream_error_status_ = 0;
  ProviderError stream_error_;
  absl::Status decode_error_;
  bool delivered_output_ = false;
};

struct TransportSettings {
  std::string provider;  // "openai" / "anthropic", for messages
  std::string api_key;   // only to redact it from every message
  int64_t connect_timeout_ms = 10'000;
  int64_t idle_timeout_ms = 120'000;
  RetryPolicy retry;
  uint64_t jitter_seed = 0;  // 0 = seeded from the clock
  ConnectionPool* pool = nullptr;  // keep connections between requests (the provider owns it)
};

struct AttemptStats {
  int attempts = 0;
};

// Runs the attempts. `request` carries url, headers and body; deadline and callbacks are set
// here from `options` and `callbacks`.
absl::StatusOr<ChatResponse> PostWithRetries(
    const TransportSettings& settings, HttpRequest request, const RequestOptions& options,
    const std::string& model, const StreamCallbacks& callbacks,
    const std::function<std::unique_ptr<ResponseDecoder>()>& make_decoder,
    AttemptStats* stats = nullptr);

// The headers every request carries: a JSON body, the response type asked for, the key in the
// settings' auth style (`default_auth` when that is kDefault), then the configured extra headers.
void AddStandardHeaders(const ProviderSettings& settings, AuthStyle default_auth, bool stream,
                        HttpRequest& http);

// The attempt loop's settings for a provider with `settings`.
TransportSettings TransportFor(const std::string& provider, const ProviderSettings& settings,
                               ConnectionPool* pool);

// Appends a path to a base URL without doubling the slash.
std::string JoinUrl(const std::string& base, const std::string& path);

}  // namespace tw::llm
