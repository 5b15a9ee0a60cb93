// AnthropicMessagesProvider against the scripted loopback server speaking the Messages API.

#include "libs/llm/anthropic_messages_provider.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/llm/provider_test_util.h"
#include "tests/llm/scripted_llm_server.h"

namespace tw::llm {
namespace {

using nlohmann::json;
using testing::JsonResponse;
using testing::kTestKey;
using testing::Recorder;
using testing::ScriptedLlmServer;
using testing::ScriptedResponse;
using testing::SseEvent;
using testing::Stream;

ChatRequest Hello() {
  ChatRequest r;
  r.system.cacheable_prefix = "You are a trace analyst.";
  r.system.rest = "Scene: startup.";
  r.messages.push_back({Role::kUser, "Why is cold start slow?"});
  return r;
}

std::string MessageStart() {
  return SseEvent("message_start",
                  R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test-20250101","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"cache_creation_input_tokens":0,"cache_read_input_tokens":2000,"output_tokens":1}}})");
}

std::string TextStream() {
  return MessageStart() +
         SseEvent("content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})") +
         SseEvent("ping", R"({"type": "ping"})") +
         SseEvent("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Binder "}})") +
         SseEvent("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"contention."}})") +
         SseEvent("content_block_stop", R"({"type":"content_block_stop","index":0})") +
         SseEvent("message_delta", R"({"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}})") +
         SseEvent("message_stop", R"({"type":"message_stop"})");
}

class AnthropicProviderTest : public ::testing::Test {
 protected:
  AnthropicMessagesProvider Provider() {
    return AnthropicMessagesProvider(testing::TestSettings(server_.BaseUrl(), "claude-test"));
  }
  ScriptedLlmServer server_;
};

TEST_F(AnthropicProviderTest, StreamsTextWithCachedUsageAndSendsTheExactRequest) {
  server_.Enqueue(Stream(TextStream(), 9));
  AnthropicMessagesProvider provider = Provider();
  Recorder rec;
  auto response = provider.Chat(Hello(), rec.Callbacks());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->text, "Binder contention.");
  EXPECT_EQ(rec.text_deltas, (std::vector<std::string>{"Binder ", "contention."}));
  EXPECT_EQ(response->finish_reason, FinishReason::kStop);
  EXPECT_EQ(response->model, "claude-test-20250101");
  // All prompt tokens: 25 uncached + 2000 read from the cache.
  EXPECT_EQ(response->usage.input_tokens, 2025);
  EXPECT_EQ(response->usage.cached_input_tokens, 2000);
  EXPECT_EQ(response->usage.cache_creation_tokens, 0);
  EXPECT_EQ(response->usage.output_tokens, 9);
  ASSERT_EQ(rec.usages.size(), 1u);

  auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/messages");
  EXPECT_EQ(requests[0].headers["x-api-key"], kTestKey);
  EXPECT_EQ(requests[0].headers["anthropic-version"], "2023-06-01");
  EXPECT_EQ(requests[0].headers["content-type"], "application/json");
  EXPECT_EQ(requests[0].headers.count("authorization"), 0u);
  json expected = json::parse(R"({
    "model": "claude-test",
    "max_tokens": 4096,
    "system": [
      {"type": "text", "text": "You are a trace analyst.", "cache_control": {"type": "ephemeral"}},
      {"type": "text", "text": "Scene: startup."}],
    "messages": [{"role": "user", "content": [{"type": "text", "text": "Why is cold start slow?"}]}],
    "stream": true
  })");
  EXPECT_EQ(json::parse(requests[0].body), expected) << requests[0].body;
}

TEST_F(AnthropicProviderTest, AssemblesToolUseSplitAcrossManyDeltasAndParallelCalls) {
  const std::string args1 = R"({"skill": "startup_breakdown", "params": {"upid": 12}})";
  std::string wire = MessageStart() +
      SseEvent("content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})") +
      SseEvent("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Two checks."}})") +
      SseEvent("content_block_stop", R"({"type":"content_block_stop","index":0})") +
      SseEvent("content_block_start", R"({"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01","name":"invoke_skill","input":{}}})");
  for (size_t i = 0; i < args1.size(); i += 4) {
    json delta = {{"type", "content_block_delta"},
                  {"index", 1},
                  {"delta", {{"type", "input_json_delta"}, {"partial_json", args1.substr(i, 4)}}}};
    wire += SseEvent("content_block_delta", delta.dump());
  }
  wire += SseEvent("content_block_stop", R"({"type":"content_block_stop","index":1})") +
      SseEvent("content_block_start", R"({"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_02","name":"list_skills","input":{}}})") +
      SseEvent("content_block_delta", R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}})") +
      SseEvent("content_block_stop", R"({"type":"content_block_stop","index":2})") +
      SseEvent("message_delta", R"({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":80}})") +
      SseEvent("message_stop", R"({"type":"message_stop"})");
  server_.Enqueue(Stream(wire, 13));
  AnthropicMessagesProvider provider = Provider();
  Recorder rec;
  auto response = provider.Chat(Hello(), rec.Callbacks());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->text, "Two checks.");
  ASSERT_EQ(response->tool_calls.size(), 2u);
  EXPECT_EQ(response->tool_calls[0].id, "toolu_01");
  EXPECT_EQ(response->tool_calls[0].name, "invoke_skill");
  EXPECT_EQ(response->tool_calls[0].arguments, args1);
  EXPECT_EQ(response->tool_calls[1].id, "toolu_02");
  EXPECT_EQ(response->tool_calls[1].arguments, "{}");  // no input: an empty object
  EXPECT_EQ(response->finish_reason, FinishReason::kToolCalls);
  ASSERT_EQ(rec.tool_calls.size(), 2u);
  EXPECT_EQ(rec.tool_calls[0].arguments, args1);
  EXPECT_EQ(response->usage.output_tokens, 80);
}

TEST_F(AnthropicProviderTest, SendsToolsAndGroupsConsecutiveToolResults) {
  server_.Enqueue(Stream(TextStream()));
  ChatRequest r;
  r.system.cacheable_prefix = "Rules.";
  r.messages.push_back({Role::kUser, "Find the jank."});
  r.messages.push_back({Role::kAssistant, "Looking.", {{"toolu_1", "execute_sql", R"({"sql":"SELECT 1"})"},
                                                       {"toolu_2", "execute_sql", R"({"sql": "SEL)"}}});
  r.messages.push_back({Role::kTool, "1 row", {}, "toolu_1", false});
  r.messages.push_back({Role::kTool, "malformed arguments", {}, "toolu_2", true});
  r.messages.push_back({Role::kUser, "Go on."});
  r.tools.push_back({"execute_sql", "Run SQL.",
                     {{"type", "object"}, {"properties", {{"sql", {{"type", "string"}}}}}}});
  r.options.tool_choice = ToolChoice::kRequired;
  r.options.temperature = 0.0;
  r.options.stop = {"</answer>"};
  r.options.max_tokens = 1000;
  AnthropicMessagesProvider provider = Provider();
  ASSERT_TRUE(provider.Chat(r, {}).ok());
  json expected = json::parse(R"({
    "model": "claude-test",
    "max_tokens": 1000,
    "system": [{"type": "text", "text": "Rules.", "cache_control": {"type": "ephemeral"}}],
    "messages": [
      {"role": "user", "content": [{"type": "text", "text": "Find the jank."}]},
      {"role": "assistant", "content": [
        {"type": "text", "text": "Looking."},
        {"type": "tool_use", "id": "toolu_1", "name": "execute_sql", "input": {"sql": "SELECT 1"}},
        {"type": "tool_use", "id": "toolu_2", "name": "execute_sql", "input": {}}]},
      {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "1 row"},
        {"type": "tool_result", "tool_use_id": "toolu_2", "content": "malformed arguments", "is_error": true},
        {"type": "text", "text": "Go on."}]}],
    "temperature": 0.0,
    "stop_sequences": ["</answer>"],
    "tools": [{"name": "execute_sql", "description": "Run SQL.",
               "input_schema": {"type": "object", "properties": {"sql": {"type": "string"}}}}],
    "tool_choice": {"type": "any"},
    "stream": true
  })");
  EXPECT_EQ(json::parse(server_.Requests().at(0).body), expected) << server_.Requests().at(0).body;
}

TEST_F(AnthropicProviderTest, InvalidUtf8InTheConversationIsReplacedNotThrown) {
  server_.Enqueue(Stream(TextStream()));
  ChatRequest r = Hello();
  r.messages[0].text = std::string("slice \xc3 name");
  AnthropicMessagesProvider provider = Provider();
  ASSERT_TRUE(provider.Chat(r, {}).ok());
  json body = json::parse(server_.Requests().at(0).body);
  EXPECT_EQ(body["messages"][0]["content"][0]["text"], "slice \xEF\xBF\xBD name");
}

TEST_F(AnthropicProviderTest, NonStreamingResponseWithCacheWrite) {
  server_.Enqueue(JsonResponse(200, R"({
    "id": "msg_2", "type": "message", "role": "assistant", "model": "claude-test-1",
    "content": [{"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "toolu_9", "name": "lookup_sql_schema", "input": {"table": "thread_state"}}],
    "stop_reason": "tool_use", "stop_sequence": null,
    "usage": {"input_tokens": 30, "cache_creation_input_tokens": 1500, "cache_read_input_tokens": 0, "output_tokens": 12}})"));
  ChatRequest r = Hello();
  r.options.stream = false;
  AnthropicMessagesProvider provider = Provider();
  auto response = provider.Chat(r, {});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->text, "Checking.");
  ASSERT_EQ(response->tool_calls.size(), 1u);
  EXPECT_EQ(json::parse(response->tool_calls[0].arguments), json({{"table", "thread_state"}}));
  EXPECT_EQ(response->finish_reason, FinishReason::kToolCalls);
  EXPECT_EQ(response->usage.input_tokens, 1530);
  EXPECT_EQ(response->usage.cache_creation_tokens, 1500);
  EXPECT_EQ(response->usage.output_tokens, 12);
  EXPECT_FALSE(json::parse(server_.Requests().at(0).body).contains("stream"));
}

TEST_F(AnthropicProviderTest, OverloadedErrorEventIsRetried) {
  server_.Enqueue(Stream(MessageStart() +
                         SseEvent("error", R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})")));
  server_.Enqueue(Stream(TextStream()));
  AnthropicMessagesProvider provider = Provider();
  Recorder rec;
  auto response = provider.Chat(Hello(), rec.Callbacks());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(provider.last_attempts(), 2);
  EXPECT_EQ(rec.Text(), "Binder contention.");
}

TEST_F(AnthropicProviderTest, Overloaded529ThenSuccessAndPersistentOverload) {
  server_.Enqueue(JsonResponse(529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"));
  server_.Enqueue(Stream(TextStream()));
  AnthropicMessagesProvider provider = Provider();
  ASSERT_TRUE(provider.Chat(Hello(), {}).ok());
  EXPECT_EQ(provider.last_attempts(), 2);

  for (int i = 0; i < 3; ++i) {
    server_.Enqueue(JsonResponse(529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"));
  }
  auto failed = provider.Chat(Hello(), {});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(failed.status().message().find("overloaded after 3 attempts"), std::string::npos)
      << failed.status();
}

TEST_F(AnthropicProviderTest, RateLimitRetryAfterThenSuccess) {
  ScriptedResponse limited = JsonResponse(429, R"({"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}})");
  limited.headers = {{"retry-after", "0"}};
  server_.Enqueue(limited);
  server_.Enqueue(Stream(TextStream()));
  AnthropicMessagesProvider provider = Provider();
  ASSERT_TRUE(provider.Chat(Hello(), {}).ok());
  EXPECT_EQ(server_.RequestCount(), 2);
}

TEST_F(AnthropicProviderTest, ErrorsThatAreNotRetried) {
  server_.Enqueue(JsonResponse(401, R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})"));
  server_.Enqueue(JsonResponse(400, R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 215000 tokens > 200000 maximum"}})"));
  server_.Enqueue(JsonResponse(404, R"({"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}})"));
  AnthropicMessagesProvider provider = Provider();
  auto auth = provider.Chat(Hello(), {});
  EXPECT_EQ(auth.status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_NE(auth.status().message().find("API key rejected"), std::string::npos);
  auto too_long = provider.Chat(Hello(), {});
  EXPECT_EQ(too_long.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(too_long.status().message().find("context too long"), std::string::npos);
  auto unknown = provider.Chat(Hello(), {});
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(server_.RequestCount(), 3);
}

TEST_F(AnthropicProviderTest, StreamWithoutMessageStopIsAnError) {
  std::string wire = TextStream();
  server_.Enqueue(Stream(wire.substr(0, wire.find("event: message_delta"))));
  AnthropicMessagesProvider provider = Provider();
  auto response = provider.Chat(Hello(), {});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(response.status().message().find("ended early"), std::string::npos) << response.status();
}

TEST_F(AnthropicProviderTest, CompatibleEndpointWithBearerAuthAndV1Base) {
  server_.Enqueue(Stream(TextStream()));
  auto settings = testing::TestSettings(server_.BaseUrl() + "/api/v1/", "claude-test");
  settings.auth = AuthStyle::kBearer;
  AnthropicMessagesProvider provider(settings);
  ASSERT_TRUE(provider.Chat(Hello(), {}).ok());
  auto requests = server_.Requests();
  EXPECT_EQ(requests[0].path, "/api/v1/messages");
  EXPECT_EQ(requests[0].headers["authorization"], std::string("Bearer ") + kTestKey);
  EXPECT_EQ(requests[0].headers.count("x-api-key"), 0u);
  EXPECT_EQ(requests[0].headers["anthropic-version"], "2023-06-01");
}

TEST_F(AnthropicProviderTest, CancellationMidStream) {
  ScriptedResponse slow = Stream(TextStream(), 50);
  slow.delay_between_chunks_ms = 20;
  server_.Enqueue(slow);
  AnthropicMessagesProvider provider = Provider();
  Recorder rec;
  StreamCallbacks callbacks = rec.Callbacks();
  callbacks.is_cancelled = [&rec] { return !rec.text_deltas.empty(); };
  auto response = provider.Chat(Hello(), callbacks);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(rec.Text(), "Binder ");
}

}  // namespace
}  // namespace tw::llm
