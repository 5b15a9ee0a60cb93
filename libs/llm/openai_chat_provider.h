#pragma once
// LlmProvider over the OpenAI Chat Completions protocol: POST {base}/chat/completions.
// Works with OpenAI and the servers that speak its protocol (Ollama, vLLM, llama.cpp server,
// DeepSeek, LiteLLM, Azure-style base URLs with AuthStyle::kApiKeyHeader).

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
nlohmann::json BuildOpenAiChatBody(const ChatRequest& request, const std::string& model,
                                   bool max_completion_tokens, bool images = true);

// Decodes a streamed (SSE chunks) or whole chat.completion response into a ChatResponse,
// calling `callbacks` as text, tool calls and usage arrive.
std::unique_ptr<ResponseDecoder> MakeOpenAiDecoder(bool stream, const StreamCallbacks& callbacks);

class OpenAiChatProvider : public LlmProvider {
 public:
  explicit OpenAiChatProvider(ProviderSettings settings);
  absl::StatusOr<ChatResponse> Chat(const ChatRequest& request,
                                    const StreamCallbacks& callbacks) override;
  std::string Name() const override { return "openai"; }
  std::string Model() const override { return settings_.model; }
  // Attempts the last Chat() made (1 = no retry); for tests and `llm ping`.
  int last_attempts() const { return last_attempts_.load(); }

 private:
  ProviderSettings settings_;
  ConnectionPool pool_;
  std::atomic<int> last_attempts_{0};
};

}  // namespace tw::llm
