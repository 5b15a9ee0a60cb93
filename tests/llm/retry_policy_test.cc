#include "libs/llm/retry_policy.h"

#include <gtest/gtest.h>

#include <ctime>
#include <set>

#include "libs/llm/provider_errors.h"

namespace tw::llm {
namespace {

TEST(RetryPolicyTest, RetriesRateLimitsAndServerErrorsOnly) {
  for (int status : {429, 500, 502, 503, 504, 529}) {
    EXPECT_TRUE(IsRetryableHttpStatus(status, "")) << status;
  }
  for (int status : {400, 401, 403, 404, 413, 422}) {
    EXPECT_FALSE(IsRetryableHttpStatus(status, "")) << status;
    // Whatever the body claims, a rejected request is not retried.
    EXPECT_FALSE(IsRetryableHttpStatus(status, "overloaded_error")) << status;
  }
  EXPECT_TRUE(IsRetryableHttpStatus(200, "overloaded_error"));  // in-stream overload
  EXPECT_FALSE(IsRetryableHttpStatus(429, "insufficient_quota"));
  EXPECT_TRUE(IsRetryableTransportError(absl::UnavailableError("reset")));
  EXPECT_FALSE(IsRetryableTransportError(absl::DeadlineExceededError("late")));
  EXPECT_FALSE(IsRetryableTransportError(absl::CancelledError("stop")));
}

TEST(RetryPolicyTest, BackoffGrowsExponentiallyWithinJitterAndCap) {
  RetryPolicy p;
  p.initial_backoff_ms = 100;
  p.multiplier = 2;
  p.max_backoff_ms = 1000;
  p.jitter = 0.25;
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    int64_t first = BackoffMs(p, 1, std::nullopt, rng);
    int64_t third = BackoffMs(p, 3, std::nullopt, rng);
    int64_t tenth = BackoffMs(p, 10, std::nullopt, rng);
    EXPECT_GE(first, 75);
    EXPECT_LE(first, 125);
    EXPECT_GE(third, 300);
    EXPECT_LE(third, 500);
    EXPECT_GE(tenth, 750);
    EXPECT_LE(tenth, 1000);
  }
  // Jitter really varies the waits.
  std::set<int64_t> distinct;
  for (int i = 0; i < 50; ++i) distinct.insert(BackoffMs(p, 2, std::nullopt, rng));
  EXPECT_GT(distinct.size(), 10u);
  // No jitter: exact.
  p.jitter = 0;
  EXPECT_EQ(BackoffMs(p, 1, std::nullopt, rng), 100);
  EXPECT_EQ(BackoffMs(p, 2, std::nullopt, rng), 200);
  EXPECT_EQ(BackoffMs(p, 4, std::nullopt, rng), 800);
  EXPECT_EQ(BackoffMs(p, 5, std::nullopt, rng), 1000);
}

TEST(RetryPolicyTest, ServerRetryAfterWins) {
  RetryPolicy p;
  std::mt19937_64 rng(1);
  EXPECT_EQ(BackoffMs(p, 1, 2500, rng), 2500);
  EXPECT_EQ(BackoffMs(p, 3, 0, rng), 0);
}

TEST(RetryPolicyTest, ParsesRetryAfterForms) {
  EXPECT_EQ(ParseRetryAfterMs("2"), 2000);
  EXPECT_EQ(ParseRetryAfterMs("0.05"), 50);
  EXPECT_EQ(ParseRetryAfterMs("", "120"), 120);
  EXPECT_EQ(ParseRetryAfterMs("5", "120"), 120);  // the precise header wins
  EXPECT_FALSE(ParseRetryAfterMs("soon").has_value());
  EXPECT_FALSE(ParseRetryAfterMs("").has_value());
  EXPECT_FALSE(ParseRetryAfterMs("-3").has_value());
  // An HTTP date ~30 s ahead.
  std::time_t later = std::time(nullptr) + 30;
  std::tm tm{};
  gmtime_r(&later, &tm);
  char date[64];
  std::strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  auto ms = ParseRetryAfterMs(date);
  ASSERT_TRUE(ms.has_value()) << date;
  EXPECT_GE(*ms, 28'000);
  EXPECT_LE(*ms, 30'000);
  EXPECT_EQ(ParseRetryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT"), 0);  // in the past: now
}

TEST(ProviderErrorsTest, ParsesBothErrorShapes) {
  ProviderError o = ParseProviderError(
      R"({"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error","code":"context_length_exceeded"}})");
  EXPECT_EQ(o.type, "invalid_request_error");
  EXPECT_EQ(o.code, "context_length_exceeded");
  EXPECT_EQ(o.message, "This model's maximum context length is 8192 tokens");
  ProviderError a = ParseProviderError(
      R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})");
  EXPECT_EQ(a.type, "overloaded_error");
  EXPECT_EQ(a.message, "Overloaded");
  EXPECT_EQ(HttpStatusForErrorType(a), 529);
  ProviderError ollama = ParseProviderError(R"({"error":"model 'llama9' not found"})");
  EXPECT_EQ(ollama.message, "model 'llama9' not found");
  ProviderError html = ParseProviderError("<html>Bad Gateway</html>\n");
  EXPECT_EQ(html.message, "<html>Bad Gateway</html>");
}

TEST(ProviderErrorsTest, MapsToTheInterfaceCodesWithClearMessages) {
  absl::Status s = HttpErrorToStatus("openai", "gpt-x", 401, {"", "invalid_api_key", "bad"}, 0);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnauthenticated);
  EXPECT_NE(s.message().find("API key rejected"), std::string::npos) << s;

  s = HttpErrorToStatus("openai", "gpt-x", 404, {"", "model_not_found", "no such model"}, 0);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(s.message().find("unknown model 'gpt-x'"), std::string::npos) << s;

  // Ollama reports an unknown model as a 400 in some versions.
  s = HttpErrorToStatus("openai", "llama9", 400, {"", "", "model 'llama9' not found"}, 0);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);

  s = HttpErrorToStatus("anthropic", "claude-x", 400,
                        {"invalid_request_error", "", "prompt is too long: 210000 tokens > 200000 maximum"}, 0);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("context too long"), std::string::npos) << s;

  s = HttpErrorToStatus("anthropic", "claude-x", 429, {"rate_limit_error", "", "slow down"}, 4);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("rate limited after 4 attempts"), std::string::npos) << s;

  s = HttpErrorToStatus("anthropic", "claude-x", 529, {"overloaded_error", "", "Overloaded"}, 3);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("overloaded after 3 attempts"), std::string::npos) << s;

  s = HttpErrorToStatus("openai", "gpt-x", 400, {"invalid_request_error", "", "bad temperature"}, 0);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("bad temperature"), std::string::npos);
}

TEST(ProviderErrorsTest, RedactsKeysFromMessages) {
  const std::string key = "sk-test-SECRET-0123456789abcdef";
  std::string text = "Incorrect API key provided: " + key + ". Also sk-proj-abc****wxyz was used.";
  std::string red = RedactSecrets(text, key);
  EXPECT_EQ(red.find("SECRET"), std::string::npos) << red;
  EXPECT_EQ(red.find("sk-proj-abc"), std::string::npos) << red;
  EXPECT_NE(red.find("[redacted]"), std::string::npos);
  // A non-sk secret is removed wherever it appears.
  EXPECT_EQ(RedactSecrets("key=hunter2-long-secret;", "hunter2-long-secret"), "key=[redacted];");
  // Ordinary words survive.
  EXPECT_EQ(RedactSecrets("task-based ask-me", ""), "task-based ask-me");
}

}  // namespace
}  // namespace tw::llm
