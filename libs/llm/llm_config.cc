#include "libs/llm/llm_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/llm/anthropic_messages_provider.h"
#include "libs/llm/openai_chat_provider.h"

namespace tw::llm {
namespace {

constexpr char kOpenAiBase[] = "https://api.openai.com/v1";
constexpr char kAnthropicBase[] = "https://api.anthropic.com";

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

absl::StatusOr<ProviderKind> ParseProvider(const std::string& value, const std::string& where) {
  const std::string v = Lower(value);
  if (v == "openai" || v == "openai-compatible") return ProviderKind::kOpenAi;
  if (v == "anthropic") return ProviderKind::kAnthropic;
  return absl::InvalidArgumentError(
      absl::StrCat(where, ": unknown provider '", value, "' (use openai or anthropic)"));
}

absl::StatusOr<AuthStyle> ParseAuth(const std::string& value, const std::string& where) {
  const std::string v = Lower(value);
  if (v == "bearer") return AuthStyle::kBearer;
  if (v == "x-api-key") return AuthStyle::kXApiKey;
  if (v == "api-key") return AuthStyle::kApiKeyHeader;
  if (v == "none") return AuthStyle::kNone;
  return absl::InvalidArgumentError(absl::StrCat(
      where, ": unknown auth '", value, "' (use bearer, x-api-key, api-key or none)"));
}

absl::Status ParseInt(const std::string& value, const std::string& where, int64_t& out) {
  int64_t v = 0;
  if (!absl::SimpleAtoi(value, &v) || v < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": expected a non-negative integer, got '", value, "'"));
  }
  out = v;
  return absl::OkStatus();
}

absl::Status ParseDouble(const std::string& value, const std::string& where, double& out) {
  double v = 0;
  if (!absl::SimpleAtod(value, &v) || v < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": expected a non-negative number, got '", value, "'"));
  }
  out = v;
  return absl::OkStatus();
}

// The settings both sources share, by key name (file key = env suffix in lower case).
absl::Status ApplySetting(const std::string& key, const std::string& value,
                          const std::string& where, LlmConfig& c) {
  if (key == "provider") {
    ASSIGN_OR_RETURN(c.provider, ParseProvider(value, where));
  } else if (key == "base_url") {
    c.base_url = value;
  } else if (key == "model") {
    c.model = value;
  } else if (key == "light_model") {
    c.light_model = value;
  } else if (key == "auth") {
    ASSIGN_OR_RETURN(c.auth, ParseAuth(value, where));
  } else if (key == "connect_timeout_ms") {
    RETURN_IF_ERROR(ParseInt(value, where, c.connect_timeout_ms));
  } else if (key == "idle_timeout_ms") {
    RETURN_IF_ERROR(ParseInt(value, where, c.idle_timeout_ms));
  } else if (key == "timeout_ms" || key == "request_timeout_ms") {
    RETURN_IF_ERROR(ParseInt(value, where, c.request_timeout_ms));
  } else if (key == "retry_backoff_ms") {
    RETURN_IF_ERROR(ParseInt(value, where, c.initial_backoff_ms));
  } else if (key == "max_attempts") {
    int64_t attempts = 0;
    RETURN_IF_ERROR(ParseInt(value, where, attempts));
    c.max_attempts = static_cast<int>(std::clamp<int64_t>(attempts, 1, 20));
  } else if (key == "budget_usd") {
    RETURN_IF_ERROR(ParseDouble(value, where, c.budget_usd));
  } else if (key == "images") {
    const std::string v = Lower(value);
    if (v == "on" || v == "true" || v == "1" || v == "yes") {
      c.images = true;
    } else if (v == "off" || v == "false" || v == "0" || v == "no") {
      c.images = false;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(where, ": expected on or off, got '", value, "'"));
    }
  } else {
    return absl::InvalidArgumentError(absl::StrCat(where, ": unknown setting '", key, "'"));
  }
  return absl::OkStatus();
}

const char* const kEnvSettings[] = {"provider",         "base_url",        "model",
                                    "light_model",      "auth",            "connect_timeout_ms",
                                    "idle_timeout_ms",  "timeout_ms",      "retry_backoff_ms",
                                    "max_attempts",     "budget_usd",      "images"};

std::string EnvName(const std::string& key) {
  std::string upper = key;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  return "TRACEWISE_LLM_" + upper;
}

std::optional<std::string> NonEmpty(const EnvLookup& env, const std::string& name) {
  std::optional<std::string> v = env(name);
  if (v && v->empty()) return std::nullopt;
  return v;
}

bool IsOfficialHost(const std::string& base_url) {
  return base_url.find("://api.openai.com") != std::string::npos ||
         base_url.find("://api.anthropic.com") != std::string::npos;
}

}  // namespace

std::string LlmConfig::Describe() const {
  if (!configured()) return "no LLM configured";
  std::string out = absl::StrCat(provider == ProviderKind::kOpenAi ? "openai" : "anthropic",
                                 " model=", model);
  if (!light_model.empty() && light_model != model) absl::StrAppend(&out, " light=", light_model);
  absl::StrAppend(&out, " base=", base_url, " key=",
                  api_key.empty() ? "none" : absl::StrCat("set (", api_key_source, ")"));
  return out;
}

EnvLookup ProcessEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

absl::Status ApplyConfigFile(const std::string& path, const EnvLookup& env, LlmConfig& config) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read LLM config ", path, ": ", e.what()));
  }
  // The orchestrator's config file keeps these under `llm:`; a file of its own may not.
  YAML::Node llm = root["llm"] ? root["llm"] : root;
  if (!llm.IsMap()) return absl::InvalidArgumentError(absl::StrCat(path, ": expected a mapping"));
  try {
    for (const auto& entry : llm) {
      const std::string key = entry.first.as<std::string>();
      const std::string where = absl::StrCat(path, ": llm.", key);
      if (key == "prices") {
        if (!entry.second.IsMap()) return absl::InvalidArgumentError(where + ": expected a mapping");
        for (const auto& model : entry.second) {
          const YAML::Node& p = model.second;
          ModelPrice price;
          price.input_per_million = p["input"].as<double>(0);
          price.output_per_million = p["output"].as<double>(0);
          price.cached_input_per_million = p["cached_input"].as<double>(price.input_per_million);
          if (p["cache_write"]) price.cache_write_per_million = p["cache_write"].as<double>();
          config.prices.Set(model.first.as<std::string>(), price);
        }
      } else if (key == "api_key") {
        config.api_key = entry.second.as<std::string>();
        config.api_key_source = "config file";
      } else if (key == "api_key_env") {
        const std::string var = entry.second.as<std::string>();
        if (std::optional<std::string> v = NonEmpty(env, var)) {
          config.api_key = *v;
          config.api_key_source = var;
        }
      } else if (!entry.second.IsScalar()) {
        return absl::InvalidArgumentError(where + ": expected a value");
      } else {
        RETURN_IF_ERROR(ApplySetting(key, entry.second.as<std::string>(), where, config));
      }
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", e.what()));
  }
  return absl::OkStatus();
}

absl::Status ApplyEnvironment(const EnvLookup& env, LlmConfig& config) {
  for (const char* key : kEnvSettings) {
    const std::string name = EnvName(key);
    if (std::optional<std::string> v = NonEmpty(env, name)) {
      RETURN_IF_ERROR(ApplySetting(key, *v, name, config));
    }
  }
  if (std::optional<std::string> key = NonEmpty(env, "TRACEWISE_LLM_API_KEY")) {
    config.api_key = *key;
    config.api_key_source = "TRACEWISE_LLM_API_KEY";
  }
  return absl::OkStatus();
}

absl::StatusOr<LlmConfig> LoadLlmConfig(const std::string& config_path, const EnvLookup& env) {
  LlmConfig config;
  std::string path = config_path;
  if (path.empty()) path = NonEmpty(env, "TRACEWISE_LLM_CONFIG").value_or("");
  if (!path.empty()) RETURN_IF_ERROR(ApplyConfigFile(path, env, config));
  RETURN_IF_ERROR(ApplyEnvironment(env, config));

  if (!config.configured()) {
    // Settings without a provider are a half-done configuration, not "no LLM".
    if (!config.model.empty() || !config.base_url.empty()) {
      return absl::InvalidArgumentError(
          "TRACEWISE_LLM_MODEL or TRACEWISE_LLM_BASE_URL is set but TRACEWISE_LLM_PROVIDER is not "
          "(set it to openai or anthropic)");
    }
    return config;
  }
  const bool openai = config.provider == ProviderKind::kOpenAi;
  if (config.base_url.empty()) config.base_url = openai ? kOpenAiBase : kAnthropicBase;
  if (config.api_key.empty()) {
    const char* fallback = openai ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
    if (std::optional<std::string> key = NonEmpty(env, fallback)) {
      config.api_key = *key;
      config.api_key_source = fallback;
    }
  }
  if (config.model.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TRACEWISE_LLM_PROVIDER is ", openai ? "openai" : "anthropic",
        " but no model is set: set TRACEWISE_LLM_MODEL (or llm.model in the config file)"));
  }
  if (config.api_key.empty() && config.auth != AuthStyle::kNone && IsOfficialHost(config.base_url)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no API key for ", config.base_url, ": set TRACEWISE_LLM_API_KEY or ",
        openai ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY"));
  }
  if (config.light_model.empty()) config.light_model = config.model;
  return config;
}

std::string HowToConfigure() {
  return "No LLM is configured. To use one, set for example:\n"
         "  export TRACEWISE_LLM_PROVIDER=openai        # or anthropic\n"
         "  export TRACEWISE_LLM_MODEL=gpt-4.1          # a model your endpoint serves\n"
         "  export TRACEWISE_LLM_API_KEY=...            # or OPENAI_API_KEY / ANTHROPIC_API_KEY\n"
         "  export TRACEWISE_LLM_BASE_URL=http://localhost:11434/v1   # optional: Ollama, vLLM, ...\n"
         "or put the same settings under `llm:` in a YAML file named by TRACEWISE_LLM_CONFIG.\n"
         "Without an LLM, `tracewise analyze` runs the deterministic offline analyst.\n";
}

ProviderSettings ToProviderSettings(const LlmConfig& config, bool light_model) {
  ProviderSettings s;
  s.base_url = config.base_url;
  s.api_key = config.api_key;
  s.model = light_model && !config.light_model.empty() ? config.light_model : config.model;
  s.auth = config.auth;
  s.connect_timeout_ms = config.connect_timeout_ms;
  s.idle_timeout_ms = config.idle_timeout_ms;
  s.retry.max_attempts = config.max_attempts;
  s.retry.initial_backoff_ms = config.initial_backoff_ms;
  s.retry.max_backoff_ms = std::max<int64_t>(config.initial_backoff_ms, s.retry.max_backoff_ms);
  s.images = config.images;
  return s;
}

absl::StatusOr<std::unique_ptr<LlmProvider>> MakeProvider(const LlmConfig& config,
                                                          bool light_model) {
  switch (config.provider) {
    case ProviderKind::kOpenAi:
      return std::unique_ptr<LlmProvider>(
          std::make_unique<OpenAiChatProvider>(ToProviderSettings(config, light_model)));
    case ProviderKind::kAnthropic:
      return std::unique_ptr<LlmProvider>(
          std::make_unique<AnthropicMessagesProvider>(ToProviderSettings(config, light_model)));
    case ProviderKind::kNone:
      break;
  }
  return absl::FailedPreconditionError(HowToConfigure());
}

}  // namespace tw::llm
