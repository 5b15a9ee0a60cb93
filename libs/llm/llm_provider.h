#pragma once
// The provider-neutral conversation model and the LlmProvider interface (DESIGN.md §1, §5).
// The agent loop speaks only these types; OpenAiChatProvider and AnthropicMessagesProvider
// translate them to their wire protocols. Nothing here throws: every failure is a Status whose
// message says what happened (never containing the API key).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/llm/image_content.h"

namespace tw::llm {

// One tool call the assistant asked for. `arguments` is the JSON text exactly as the model sent
// it (assembled from stream fragments); it may be malformed, which the caller reports back to
// the model rather than failing the turn.
struct ToolCall {
  std::string id;
  std::string name;
  std::string arguments;
};

enum class Role { kUser, kAssistant, kTool };

struct Message {
  Role role = Role::kUser;
  std::string text;                 // user text, assistant text, or the tool result content
  std::vector<ToolCall> tool_calls;  // assistant only
  std::string tool_call_id;         // tool only: the call this result answers
  bool tool_error = false;          // tool only: the result reports a failure
  std::vector<ImageContent> images;  // user and tool messages
};


struct ToolSchema {
  std::string name;
  std::string description;
  nlohmann::json parameters;  // a JSON-schema object
};

// A system prompt in parts: the stable prefix is sent first and marked cacheable where the
// provider supports prompt caching (Anthropic cache_control); the rest follows uncached.
struct SystemPrompt {
  std::string cacheable_prefix;
  std::string rest;
  std::string Joined() const {
    if (rest.empty()) return cacheable_prefix;
    if (cacheable_prefix.empty()) return rest;
    return cacheable_prefix + "\n\n" + rest;
  }
};

enum class ToolChoice { kAuto, kNone, kRequired };

struct RequestOptions {
  std::string model;  // empty: the provider's configured model
  int max_tokens = 4096;
  std::optional<double> temperature;
  ToolChoice tool_choice = ToolChoice::kAuto;
  std::vector<std::string> stop;
  int64_t timeout_ms = 300'000;  // overall deadline of the request, retries included
  bool stream = true;
};

struct ChatRequest {
  SystemPrompt system;
  std::vector<Message> messages;
  std::vector<ToolSchema> tools;
  RequestOptions options;
};

// input_tokens counts every prompt token, the cached and cache-written ones included (OpenAI's
// prompt_tokens; Anthropic's input + cache read + cache creation), so costs price each part once.
struct Usage {
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cached_input_tokens = 0;       // read from the prompt cache
  int64_t cache_creation_tokens = 0;     // written to the prompt cache
  Usage& operator+=(const Usage& o) {
    input_tokens += o.input_tokens;
    output_tokens += o.output_tokens;
    cached_input_tokens += o.cached_input_tokens;
    cache_creation_tokens += o.cache_creation_tokens;
    return *this;
  }
};

enum class FinishReason { kStop, kToolCalls, kMaxTokens, kStopSequence, kContentFilter, kOther };

struct ChatResponse {
  std::string text;
  std::vector<ToolCall> tool_calls;
  Usage usage;
  FinishReason finish_reason = FinishReason::kOther;
  std::string model;  // as reported by the provider
};

// Streaming callbacks; all optional. Called on the caller's thread, in stream order.
struct StreamCallbacks {
  std::function<void(const std::string& delta)> on_text;
  // A tool call is reported once, complete (id, name, full arguments text).
  std::function<void(const ToolCall& call)> on_tool_call;
  std::function<void(const Usage& usage)> on_usage;
  // Polled between network reads; returning true aborts the request with CANCELLED.
  std::function<bool()> is_cancelled;
};

class LlmProvider {
 public:
  virtual ~LlmProvider() = default;
  // Sends one request and returns the assembled response. Errors: UNAUTHENTICATED (bad key),
  // PERMISSION_DENIED (the key may not use this model), NOT_FOUND (unknown model / endpoint),
  // INVALID_ARGUMENT (bad request, context too long),
  // RESOURCE_EXHAUSTED (rate limited after retries), UNAVAILABLE (server errors after retries,
  // connection failures), DEADLINE_EXCEEDED, CANCELLED.
  virtual absl::StatusOr<ChatResponse> Chat(const ChatRequest& request,
                                            const StreamCallbacks& callbacks) = 0;
  // "openai" or "anthropic" (for logs and the prompt's output-format choices).
  virtual std::string Name() const = 0;
  virtual std::string Model() const = 0;
};

}  // namespace tw::llm
