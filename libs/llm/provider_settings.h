#pragma once
// How to reach one provider endpoint: where, with which key and model, how patiently.
// Built from LlmConfig by MakeProvider (llm_config.h), or directly by tests.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libs/llm/retry_policy.h"

namespace tw::llm {

// How the API key is sent. kDefault: Bearer for OpenAI, x-api-key for Anthropic.
enum class AuthStyle {
  kDefault,
  kBearer,        // Authorization: Bearer KEY (OpenAI, most compatible servers)
  kXApiKey,       // x-api-key: KEY (Anthropic)
  kApiKeyHeader,  // api-key: KEY (Azure OpenAI)
  kNone,          // local servers without auth (Ollama, llama.cpp)
};

struct ProviderSettings {
  std::string base_url;  // e.g. https://api.openai.com/v1, https://api.anthropic.com
  std::string api_key;   // may be empty for local servers
  std::string model;
  AuthStyle auth = AuthStyle::kDefault;
  std::vector<std::pair<std::string, std::string>> extra_headers;
  int64_t connect_timeout_ms = 10'000;
  int64_t idle_timeout_ms = 120'000;
  RetryPolicy retry;
  uint64_t jitter_seed = 0;  // tests fix it; 0 = from the clock
  // OpenAI only: send max_completion_tokens instead of max_tokens. nullopt = decide by host
  // (api.openai.com wants max_completion_tokens; compatible servers know max_tokens).
  std::optional<bool> openai_max_completion_tokens;
  // Anthropic only: the anthropic-version header.
  std::string anthropic_version = "2023-06-01";
  // Whether the model accepts image content; when false images become a text note.
  bool images = true;
};

}  // namespace tw::llm
