#pragma once
// Which LLM to use, from the environment and/or a config file, and the factory that turns it
// into an LlmProvider. Nothing configured is a normal state: callers then run the offline
// analyst (DESIGN.md §5).
//
// Environment (wins over the file):
//   TRACEWISE_LLM_PROVIDER     openai | anthropic (required to turn the LLM on)
//   TRACEWISE_LLM_MODEL        model name (required)
//   TRACEWISE_LLM_BASE_URL     default https://api.openai.com/v1 or https://api.anthropic.com
//   TRACEWISE_LLM_API_KEY      falls back to OPENAI_API_KEY / ANTHROPIC_API_KEY by provider
//   TRACEWISE_LLM_LIGHT_MODEL  a cheaper model for quick checks (default: the model)
//   TRACEWISE_LLM_AUTH         bearer | x-api-key | api-key | none (default per provider)
//   TRACEWISE_LLM_CONNECT_TIMEOUT_MS, TRACEWISE_LLM_IDLE_TIMEOUT_MS, TRACEWISE_LLM_TIMEOUT_MS,
//   TRACEWISE_LLM_MAX_ATTEMPTS, TRACEWISE_LLM_RETRY_BACKOFF_MS, TRACEWISE_LLM_BUDGET_USD
//   TRACEWISE_LLM_IMAGES       on | off: whether the model accepts images (default on)
//   TRACEWISE_LLM_CONFIG       a config file to read when no path is given
// Config file (YAML; the same keys under `llm:`, see libs/llm/README.md), plus `api_key_env`
// (the variable holding the key) and `prices` (per-model overrides of the price table).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "libs/llm/cost_tracker.h"
#include "libs/llm/llm_provider.h"
#include "libs/llm/provider_settings.h"

namespace tw::llm {

enum class ProviderKind { kNone, kOpenAi, kAnthropic };

struct LlmConfig {
  ProviderKind provider = ProviderKind::kNone;
  std::string base_url;
  std::string model;
  std::string light_model;
  std::string api_key;
  std::string api_key_source;  // where the key came from ("OPENAI_API_KEY", "config file", ...)
  AuthStyle auth = AuthStyle::kDefault;
  int64_t connect_timeout_ms = 10'000;
  int64_t idle_timeout_ms = 120'000;
  int64_t request_timeout_ms = 300'000;  // for RequestOptions::timeout_ms
  int max_attempts = 4;
  int64_t initial_backoff_ms = 1000;
  double budget_usd = 0;  // 0 = no budget
  bool images = true;     // the model accepts image content (client tools' capture_view)
  PriceTable prices = PriceTable::Defaults();

  bool configured() const { return provider != ProviderKind::kNone; }
  // One line for logs and `llm ping`: provider, model, base URL and whether a key is set (never
  // the key).
  std::string Describe() const;
};

// Looks a variable up; the default reads the process environment.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
EnvLookup ProcessEnvironment();

// Applies a YAML config file on top of `config`.
absl::Status ApplyConfigFile(const std::string& path, const EnvLookup& env, LlmConfig& config);
// Applies the TRACEWISE_LLM_* variables (and the key fallbacks) on top of `config`.
absl::Status ApplyEnvironment(const EnvLookup& env, LlmConfig& config);

// File (when `config_path` or TRACEWISE_LLM_CONFIG names one), then environment, then defaults
// and checks. A config with nothing set is returned with configured() == false; a partial or
// contradictory one is INVALID_ARGUMENT saying what to set.
absl::StatusOr<LlmConfig> LoadLlmConfig(const std::string& config_path = "",
                                        const EnvLookup& env = ProcessEnvironment());

// How to turn the LLM on, for messages shown when nothing is configured.
std::string HowToConfigure();

ProviderSettings ToProviderSettings(const LlmConfig& config, bool light_model = false);
// The provider for `config` (its light model when `light_model`). FAILED_PRECONDITION when the
// config is not configured().
absl::StatusOr<std::unique_ptr<LlmProvider>> MakeProvider(const LlmConfig& config,
                                                          bool light_model = false);

}  // namespace tw::llm
