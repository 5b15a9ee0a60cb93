#include "libs/llm/llm_config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>

#include "libs/llm/anthropic_messages_provider.h"
#include "libs/llm/openai_chat_provider.h"
#include "tests/common/process_temp_dir.h"

namespace tw::llm {
namespace {

EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(LlmConfigTest, NothingSetIsNotConfigured) {
  auto config = LoadLlmConfig("", Env({}));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_FALSE(config->configured());
  // A stray vendor key alone does not switch the LLM on (it would spend money unasked).
  config = LoadLlmConfig("", Env({{"OPENAI_API_KEY", "sk-x"}}));
  ASSERT_TRUE(config.ok());
  EXPECT_FALSE(config->configured());
  auto provider = MakeProvider(*config);
  EXPECT_EQ(provider.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(provider.status().message().find("TRACEWISE_LLM_PROVIDER"), std::string::npos);
}

TEST(LlmConfigTest, OpenAiFromEnvironmentWithKeyFallback) {
  auto config = LoadLlmConfig("", Env({{"TRACEWISE_LLM_PROVIDER", "openai"},
                                       {"TRACEWISE_LLM_MODEL", "gpt-4.1"},
                                       {"TRACEWISE_LLM_LIGHT_MODEL", "gpt-4.1-mini"},
                                       {"TRACEWISE_LLM_TIMEOUT_MS", "60000"},
                                       {"TRACEWISE_LLM_MAX_ATTEMPTS", "2"},
                                       {"OPENAI_API_KEY", "sk-fallback-0123456789"},
                                       {"ANTHROPIC_API_KEY", "sk-ant-other"}}));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->provider, ProviderKind::kOpenAi);
  EXPECT_EQ(config->base_url, "https://api.openai.com/v1");
  EXPECT_EQ(config->api_key, "sk-fallback-0123456789");
  EXPECT_EQ(config->api_key_source, "OPENAI_API_KEY");
  EXPECT_EQ(config->request_timeout_ms, 60000);
  EXPECT_EQ(config->max_attempts, 2);
  // The description names the key's source, never the key.
  EXPECT_EQ(config->Describe(),
            "openai model=gpt-4.1 light=gpt-4.1-mini base=https://api.openai.com/v1 key=set "
            "(OPENAI_API_KEY)");
  auto provider = MakeProvider(*config);
  ASSERT_TRUE(provider.ok());
  EXPECT_EQ((*provider)->Name(), "openai");
  EXPECT_EQ((*provider)->Model(), "gpt-4.1");
  auto light = MakeProvider(*config, /*light_model=*/true);
  ASSERT_TRUE(light.ok());
  EXPECT_EQ((*light)->Model(), "gpt-4.1-mini");
}

TEST(LlmConfigTest, AnthropicExplicitKeyWinsAndCompatibleEndpointNeedsNoKey) {
  auto config = LoadLlmConfig("", Env({{"TRACEWISE_LLM_PROVIDER", "anthropic"},
                                       {"TRACEWISE_LLM_MODEL", "claude-sonnet-4-5"},
                                       {"TRACEWISE_LLM_API_KEY", "sk-ant-explicit-123456"},
                                       {"ANTHROPIC_API_KEY", "sk-ant-fallback"}}));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->base_url, "https://api.anthropic.com");
  EXPECT_EQ(config->api_key, "sk-ant-explicit-123456");
  EXPECT_EQ(config->light_model, "claude-sonnet-4-5");
  EXPECT_EQ((*MakeProvider(*config))->Name(), "anthropic");

  auto local = LoadLlmConfig("", Env({{"TRACEWISE_LLM_PROVIDER", "openai"},
                                      {"TRACEWISE_LLM_MODEL", "qwen2.5"},
                                      {"TRACEWISE_LLM_BASE_URL", "http://localhost:11434/v1"}}));
  ASSERT_TRUE(local.ok()) << local.status();
  EXPECT_TRUE(local->api_key.empty());
  EXPECT_NE(local->Describe().find("key=none"), std::string::npos);
}

TEST(LlmConfigTest, PartialOrWrongSettingsSayWhatToFix) {
  auto no_provider = LoadLlmConfig("", Env({{"TRACEWISE_LLM_MODEL", "gpt-4.1"}}));
  EXPECT_EQ(no_provider.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(no_provider.status().message().find("TRACEWISE_LLM_PROVIDER"), std::string::npos);

  auto no_model = LoadLlmConfig("", Env({{"TRACEWISE_LLM_PROVIDER", "openai"},
                                         {"OPENAI_API_KEY", "sk-1234567890"}}));
  EXPECT_EQ(no_model.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(no_model.status().message().find("TRACEWISE_LLM_MODEL"), std::string::npos);

  auto no_key = LoadLlmConfig("", Env({{"TRACEWISE_LLM_PROVIDER", "anthropic"},
                                       {"TRACEWISE_LLM_MODEL", "claude-x"}}));
  EXPECT_EQ(no_key.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(no_key.status().message().find("ANTHROPIC_API_KEY"), std::string::npos);

  auto bad = LoadLlmConfig("", Env({{"TRACEWISE_LLM_PROVIDER", "gemini"}}));
  EXPECT_NE(bad.status().message().find("unknown provider 'gemini'"), std::string::npos);
  auto bad_number = LoadLlmConfig("", Env({{"TRACEWISE_LLM_PROVIDER", "openai"},
                                           {"TRACEWISE_LLM_TIMEOUT_MS", "soon"}}));
  EXPECT_NE(bad_number.status().message().find("TRACEWISE_LLM_TIMEOUT_MS"), std::string::npos);
}

class LlmConfigFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::tw::testing::ProcessTempDir() + "/llm_config_test.yaml";
  }
  void TearDown() override { std::remove(path_.c_str()); }
  void Write(const std::string& text) { std::ofstream(path_) << text; }
  std::string path_;
};

TEST_F(LlmConfigFileTest, ReadsTheLlmSectionAndTheEnvironmentWins) {
  Write(R"(
server: {port: 50051}
llm:
  provider: anthropic
  base_url: https://gateway.example/anthropic
  model: claude-sonnet-4-5
  light_model: claude-haiku-4-5
  auth: bearer
  api_key_env: MY_GATEWAY_KEY
  idle_timeout_ms: 9000
  budget_usd: 2.5
  prices:
    claude-sonnet-4-5: {input: 2.0, output: 10.0, cached_input: 0.2, cache_write: 2.5}
    house-model: {input: 1.0, output: 1.0}
)");
  auto config = LoadLlmConfig(path_, Env({{"MY_GATEWAY_KEY", "gw-key-value"},
                                          {"TRACEWISE_LLM_MODEL", "claude-opus-4-5"}}));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->provider, ProviderKind::kAnthropic);
  EXPECT_EQ(config->base_url, "https://gateway.example/anthropic");
  EXPECT_EQ(config->model, "claude-opus-4-5");  // environment over file
  EXPECT_EQ(config->light_model, "claude-haiku-4-5");
  EXPECT_EQ(config->auth, AuthStyle::kBearer);
  EXPECT_EQ(config->api_key, "gw-key-value");
  EXPECT_EQ(config->api_key_source, "MY_GATEWAY_KEY");
  EXPECT_EQ(config->idle_timeout_ms, 9000);
  EXPECT_DOUBLE_EQ(config->budget_usd, 2.5);
  auto price = config->prices.Find("claude-sonnet-4-5-20250929");
  ASSERT_TRUE(price.has_value());
  EXPECT_DOUBLE_EQ(price->input_per_million, 2.0);
  EXPECT_DOUBLE_EQ(*price->cache_write_per_million, 2.5);
  auto house = config->prices.Find("house-model");
  ASSERT_TRUE(house.has_value());
  EXPECT_DOUBLE_EQ(house->cached_input_per_million, 1.0);  // defaults to the input price
  ProviderSettings s = ToProviderSettings(*config, true);
  EXPECT_EQ(s.model, "claude-haiku-4-5");
  EXPECT_EQ(s.idle_timeout_ms, 9000);
}

TEST_F(LlmConfigFileTest, ConfigPathFromTheEnvironmentAndErrors) {
  Write("provider: openai\nmodel: gpt-4o\nbase_url: http://127.0.0.1:8000/v1\n");
  auto config = LoadLlmConfig("", Env({{"TRACEWISE_LLM_CONFIG", path_}}));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->model, "gpt-4o");
  Write("llm:\n  provider: openai\n  modle: gpt-4o\n");
  auto typo = LoadLlmConfig(path_, Env({}));
  EXPECT_NE(typo.status().message().find("unknown setting 'modle'"), std::string::npos)
      << typo.status();
  auto missing = LoadLlmConfig(path_ + ".absent", Env({}));
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(CostTrackerTest, PricesByLongestPrefixAndCountsCacheSeparately) {
  PriceTable t = PriceTable::Defaults();
  ASSERT_TRUE(t.Find("gpt-4o-mini-2024-07-18").has_value());
  EXPECT_DOUBLE_EQ(t.Find("gpt-4o-mini-2024-07-18")->input_per_million, 0.15);
  EXPECT_DOUBLE_EQ(t.Find("gpt-4o-2024-08-06")->input_per_million, 2.50);
  EXPECT_DOUBLE_EQ(t.Find("claude-opus-4-5-20251101")->input_per_million, 5.00);
  EXPECT_DOUBLE_EQ(t.Find("claude-opus-4-1-20250805")->input_per_million, 15.00);
  EXPECT_FALSE(t.Find("llama3.1:8b").has_value());

  ModelPrice p{3.0, 15.0, 0.3, 3.75};
  Usage u;
  u.input_tokens = 1'000'000 + 2'000'000 + 500'000;  // uncached + cache read + cache write
  u.cached_input_tokens = 2'000'000;
  u.cache_creation_tokens = 500'000;
  u.output_tokens = 100'000;
  EXPECT_NEAR(CostUsd(p, u), 3.0 + 0.6 + 1.875 + 1.5, 1e-9);
}

TEST(CostTrackerTest, AccumulatesPerSessionAndEnforcesABudget) {
  PriceTable t;
  t.Set("m", {1.0, 2.0, 0.1, std::nullopt});
  CostTracker tracker(t);
  Usage u;
  u.input_tokens = 400'000;
  u.cached_input_tokens = 100'000;
  u.output_tokens = 50'000;
  auto cost = tracker.Add("m-2025", u);
  ASSERT_TRUE(cost.has_value());
  EXPECT_NEAR(*cost, 0.3 + 0.01 + 0.1, 1e-9);
  EXPECT_FALSE(tracker.OverBudget(1.0));
  tracker.Add("m", u);
  tracker.Add("m", u);
  EXPECT_NEAR(tracker.total_cost_usd(), 3 * 0.41, 1e-9);
  EXPECT_TRUE(tracker.OverBudget(1.0));
  EXPECT_FALSE(tracker.OverBudget(0));  // no budget
  EXPECT_FALSE(tracker.has_unpriced_usage());
  EXPECT_FALSE(tracker.Add("local-llama", u).has_value());
  EXPECT_TRUE(tracker.has_unpriced_usage());
  EXPECT_EQ(tracker.requests(), 4);
  EXPECT_EQ(tracker.total_usage().input_tokens, 1'600'000);
  EXPECT_EQ(tracker.usage_by_model().at("m").output_tokens, 100'000);
}

}  // namespace
}  // namespace tw::llm
