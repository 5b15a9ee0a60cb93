#pragma once
// Turning provider error documents into Statuses with messages a user can act on (DESIGN.md §7):
// "API key rejected", "model not found", "context too long", "rate limited after N attempts".
// Both providers' error bodies are understood:
//   OpenAI-style:    {"error": {"message": ..., "type": ..., "code": ...}}
//   Anthropic-style: {"type": "error", "error": {"type": ..., "message": ...}}

#include <string>

#include "absl/status/status.h"

namespace tw::llm {

struct ProviderError {
  std::string type;     // "invalid_request_error", "overloaded_error", "insufficient_quota", ...
  std::string code;     // OpenAI's "code" ("context_length_exceeded", "model_not_found", ...)
  std::string message;  // the provider's human-readable message
};

// Parses an error body of either shape; a body that is not JSON becomes the message (truncated).
ProviderError ParseProviderError(const std::string& body);

// The HTTP status an in-stream error event stands for (Anthropic `event: error`, or an OpenAI
// chunk carrying "error"), so stream errors take the same retry and mapping path.
int HttpStatusForErrorType(const ProviderError& error);

// Maps a final HTTP failure to the interface's error codes. `attempts` > 1 is mentioned in the
// message ("rate limited after 4 attempts").
absl::Status HttpErrorToStatus(const std::string& provider, const std::string& model,
                               int http_status, const ProviderError& error, int attempts);

// Replaces every occurrence of `secret` (and key-looking tokens such as "sk-...") in `text`.
std::string RedactSecrets(std::string text, const std::string& secret);
absl::Status RedactSecrets(const absl::Status& status, const std::string& secret);

}  // namespace tw::llm
