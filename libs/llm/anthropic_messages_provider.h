#pragma once
// LlmProvider over the Anthropic Messages protocol: POST {base}/v1/messages (or {base}/messages
// when the base already ends in /v1). The system prompt's stable prefix carries cache_control so
// the provider caches tools + prefix across turns.

#include <atomic>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "libs/llm/chat_transport.h"
#include "libs/llm/llm_provider.h"
#include "libs/llm/provider_settings.h"

namespace tw::llm {

// The request body for `request` (exposed for tests and debugging).
// `images`: the model accepts image content (else images become text notes).
nlohmann::json BuildAnthropicMessagesBody(const ChatRequest& request, const std::string& model,
                                          bool images = true);

// Decodes a streamed (message_start ... message_stop events) or whole message response.
std::unique_ptr<ResponseDecoder> MakeAnthropicDecoder(bool stream,
                                                      const StreamCallbacks& callbacks);

class AnthropicMessagesProvider : public LlmProvider {
 public:
  explicit AnthropicMessagesProvider(ProviderSettings settings);
  absl::StatusOr<ChatResponse> Chat(const ChatRequest& request,
                                    const StreamCallbacks& callbacks) override;
  std::string Name() const override { return "anthropic"; }
  std::string Model() const override { return settings_.model; }
  int last_attempts() const { return last_attempts_.load(); }

 private:
  ProviderSettings settings_;
  ConnectionPool pool_;
  std::atomic<int> last_attempts_{0};
};

}  // namespace tw::llm
