// `tracewise llm ping` run as a process against the scripted loopback server, configured only
// through the environment, as a user would.

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/llm/scripted_llm_server.h"

namespace tw::llm {
namespace {

using testing::ScriptedLlmServer;
using testing::ScriptedResponse;
using testing::SseData;
using testing::SseEvent;

struct PingRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// Runs the CLI with exactly `env` as its TRACEWISE_LLM_* / key environment.
PingRun RunPing(const std::string& env, const std::string& extra_args = "") {
  const std::string cmd = "env -u TRACEWISE_LLM_PROVIDER -u TRACEWISE_LLM_MODEL -u TRACEWISE_LLM_BASE_URL "
                          "-u TRACEWISE_LLM_API_KEY -u TRACEWISE_LLM_CONFIG -u OPENAI_API_KEY "
                          "-u ANTHROPIC_API_KEY " + env + " " TW_TRACEWISE_BIN " llm ping " +
                          extra_args + " 2>&1";
  PingRun run;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return run;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) run.output.append(buf, n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

TEST(LlmPingTest, NotConfiguredExplainsHowAndFails) {
  PingRun run = RunPing("");
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("No LLM is configured"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("TRACEWISE_LLM_PROVIDER"), std::string::npos);
}

TEST(LlmPingTest, OpenAiAnswerLatencyAndUsage) {
  ScriptedLlmServer server;
  ScriptedResponse r;
  r.chunks = {SseData(R"({"model":"gpt-ping","choices":[{"index":0,"delta":{"content":"Reachable"},"finish_reason":null}]})"),
              SseData(R"({"model":"gpt-ping","choices":[{"index":0,"delta":{"content":" and ready."},"finish_reason":"stop"}]})") +
                  SseData(R"({"model":"gpt-ping","choices":[],"usage":{"prompt_tokens":31,"completion_tokens":4,"prompt_tokens_details":{"cached_tokens":0}}})") +
                  "data: [DONE]\n\n"};
  server.Enqueue(r);
  PingRun run = RunPing("TRACEWISE_LLM_PROVIDER=openai TRACEWISE_LLM_MODEL=gpt-ping "
                    "TRACEWISE_LLM_BASE_URL=" + server.BaseUrl() + "/v1 OPENAI_API_KEY=sk-ping-SECRET-123456",
                    "'Are you there?'");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("answer    Reachable and ready."), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("latency   "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("usage     31 input tokens (0 cached), 4 output tokens"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("key=set (OPENAI_API_KEY)"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("SECRET"), std::string::npos) << run.output;
  auto requests = server.Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/chat/completions");
  EXPECT_EQ(requests[0].headers["authorization"], "Bearer sk-ping-SECRET-123456");
  auto body = nlohmann::json::parse(requests[0].body);
  EXPECT_EQ(body["model"], "gpt-ping");
  EXPECT_EQ(body["messages"].back()["content"], "Are you there?");
}

TEST(LlmPingTest, AnthropicBadKeyFailsWithoutShowingIt) {
  ScriptedLlmServer server;
  ScriptedResponse r;
  r.status = 401;
  r.content_type = "application/json";
  r.chunks = {R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key sk-ant-SECRET-abcdef"}})"};
  server.Enqueue(r);
  PingRun run = RunPing("TRACEWISE_LLM_PROVIDER=anthropic TRACEWISE_LLM_MODEL=claude-ping "
                    "TRACEWISE_LLM_BASE_URL=" + server.BaseUrl() +
                    " ANTHROPIC_API_KEY=sk-ant-SECRET-abcdef");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("API key rejected"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("SECRET"), std::string::npos) << run.output;
  EXPECT_EQ(server.RequestCount(), 1);  // a bad key is not retried
}

}  // namespace
}  // namespace tw::llm
