// OpenAiChatProvider against the scripted loopback server speaking Chat Completions.

#include "libs/llm/openai_chat_provider.h"

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
using testing::SseData;
using testing::Stream;

ChatRequest Hello() {
  ChatRequest r;
  r.system.cacheable_prefix = "You are a trace analyst.";
  r.system.rest = "Scene: scrolling.";
  r.messages.push_back({Role::kUser, "Why does it jank?"});
  return r;
}

std::string TextStream() {
  return SseData(R"({"id":"c1","object":"chat.completion.chunk","model":"gpt-test-0613","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})") +
         SseData(R"({"id":"c1","object":"chat.completion.chunk","model":"gpt-test-0613","choices":[{"index":0,"delta":{"content":"Main thread "},"finish_reason":null}]})") +
         ": keep-alive\n\n" +
         SseData(R"({"id":"c1","object":"chat.completion.chunk","model":"gpt-test-0613","choices":[{"index":0,"delta":{"content":"is blocked."},"finish_reason":null}]})") +
         SseData(R"({"id":"c1","object":"chat.completion.chunk","model":"gpt-test-0613","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})") +
         SseData(R"({"id":"c1","object":"chat.completion.chunk","model":"gpt-test-0613","choices":[],"usage":{"prompt_tokens":1200,"completion_tokens":7,"total_tokens":1207,"prompt_tokens_details":{"cached_tokens":1024}}})") +
         "data: [DONE]\n\n";
}

class OpenAiProviderTest : public ::testing::Test {
 protected:
  OpenAiChatProvider Provider() {
    return OpenAiChatProvider(testing::TestSettings(server_.BaseUrl() + "/v1", "gpt-test"));
  }
  ScriptedLlmServer server_;
};

TEST_F(OpenAiProviderTest, StreamsTextAndUsageAndSendsTheExactRequest) {
  server_.Enqueue(Stream(TextStream(), 7));  // 7-byte pieces: every event split mid-way
  OpenAiChatProvider provider = Provider();
  Recorder rec;
  auto response = provider.Chat(Hello(), rec.Callbacks());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->text, "Main thread is blocked.");
  EXPECT_EQ(rec.Text(), "Main thread is blocked.");
  EXPECT_EQ(rec.text_deltas.size(), 2u);
  EXPECT_EQ(response->finish_reason, FinishReason::kStop);
  EXPECT_EQ(response->model, "gpt-test-0613");
  EXPECT_TRUE(response->tool_calls.empty());
  EXPECT_EQ(response->usage.input_tokens, 1200);
  EXPECT_EQ(response->usage.output_tokens, 7);
  EXPECT_EQ(response->usage.cached_input_tokens, 1024);
  ASSERT_EQ(rec.usages.size(), 1u);
  EXPECT_EQ(rec.usages[0].cached_input_tokens, 1024);
  EXPECT_EQ(provider.last_attempts(), 1);

  auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/chat/completions");
  EXPECT_EQ(requests[0].headers["authorization"], std::string("Bearer ") + kTestKey);
  EXPECT_EQ(requests[0].headers["content-type"], "application/json");
  EXPECT_EQ(requests[0].headers["accept"], "text/event-stream");
  EXPECT_EQ(requests[0].headers.count("x-api-key"), 0u);
  json expected = {
      {"model", "gpt-test"},
      {"messages",
       {{{"role", "system"}, {"content", "You are a trace analyst.\n\nScene: scrolling."}},
        {{"role", "user"}, {"content", "Why does it jank?"}}}},
      {"max_tokens", 4096},
      {"stream", true},
      {"stream_options", {{"include_usage", true}}}};
  EXPECT_EQ(json::parse(requests[0].body), expected) << requests[0].body;
}

TEST_F(OpenAiProviderTest, AssemblesAToolCallSplitAcrossManyChunks) {
  const std::string args = R"({"sql": "SELECT ts, dur FROM slice WHERE name = 'Choreographer#doFrame' ORDER BY dur DESC LIMIT 5"})";
  std::string wire = SseData(R"({"model":"gpt-test","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_abc","type":"function","function":{"name":"execute_sql","arguments":""}}]},"finish_reason":null}]})");
  for (size_t i = 0; i < args.size(); i += 3) {  // 3-character argument fragments
    json chunk = {{"model", "gpt-test"},
                  {"choices",
                   {{{"index", 0},
                     {"delta", {{"tool_calls", {{{"index", 0}, {"function", {{"arguments", args.substr(i, 3)}}}}}}}},
                     {"finish_reason", nullptr}}}}};
    wire += SseData(chunk.dump());
  }
  wire += SseData(R"({"model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})");
  wire += "data: [DONE]\n\n";
  server_.Enqueue(Stream(wire, 11));
  OpenAiChatProvider provider = Provider();
  Recorder rec;
  auto response = provider.Chat(Hello(), rec.Callbacks());
  ASSERT_TRUE(response.ok()) << response.status();
  ASSERT_EQ(rec.tool_calls.size(), 1u);  // reported once, complete
  EXPECT_EQ(rec.tool_calls[0].id, "call_abc");
  EXPECT_EQ(rec.tool_calls[0].name, "execute_sql");
  EXPECT_EQ(rec.tool_calls[0].arguments, args);
  ASSERT_EQ(response->tool_calls.size(), 1u);
  EXPECT_EQ(response->tool_calls[0].arguments, args);
  EXPECT_EQ(response->finish_reason, FinishReason::kToolCalls);
  EXPECT_TRUE(response->text.empty());
  EXPECT_TRUE(rec.usages.empty());  // the server sent none
}

TEST_F(OpenAiProviderTest, AssemblesParallelToolCallsInIndexOrder) {
  // Fragments of two calls interleaved, as some servers send them.
  std::string wire =
      SseData(R"({"choices":[{"index":0,"delta":{"content":"Checking both."},"finish_reason":null}]})") +
      SseData(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"invoke_skill","arguments":"{\"skill\":"}}]},"finish_reason":null}]})") +
      SseData(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"execute_sql","arguments":"{\"sql\":"}}]},"finish_reason":null}]})") +
      SseData(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"jank\"}"}}]},"finish_reason":null}]})") +
      SseData(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\"SELECT 1\"}"}}]},"finish_reason":null}]})") +
      SseData(R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})") +
      SseData(R"({"choices":[],"usage":{"prompt_tokens":50,"completion_tokens":30}})") + "data: [DONE]\n\n";
  server_.Enqueue(Stream(wire, 5));
  OpenAiChatProvider provider = Provider();
  Recorder rec;
  auto response = provider.Chat(Hello(), rec.Callbacks());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->text, "Checking both.");
  ASSERT_EQ(response->tool_calls.size(), 2u);
  EXPECT_EQ(response->tool_calls[0].id, "call_1");
  EXPECT_EQ(response->tool_calls[0].name, "invoke_skill");
  EXPECT_EQ(response->tool_calls[0].arguments, R"({"skill":"jank"})");
  EXPECT_EQ(response->tool_calls[1].id, "call_2");
  EXPECT_EQ(response->tool_calls[1].name, "execute_sql");
  EXPECT_EQ(response->tool_calls[1].arguments, R"({"sql":"SELECT 1"})");
  ASSERT_EQ(rec.tool_calls.size(), 2u);
  EXPECT_EQ(response->usage.input_tokens, 50);
  EXPECT_EQ(response->usage.cached_input_tokens, 0);
}

TEST_F(OpenAiProviderTest, MalformedToolArgumentsArePassedThrough) {
  std::string wire =
      SseData(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_x","type":"function","function":{"name":"execute_sql","arguments":"{\"sql\": \"SELECT"}}]},"finish_reason":null}]})") +
      SseData(R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})") + "data: [DONE]\n\n";
  server_.Enqueue(Stream(wire));
  OpenAiChatProvider provider = Provider();
  auto response = provider.Chat(Hello(), {});
  ASSERT_TRUE(response.ok()) << response.status();
  ASSERT_EQ(response->tool_calls.size(), 1u);
  EXPECT_EQ(response->tool_calls[0].arguments, R"({"sql": "SELECT)");
}

TEST_F(OpenAiProviderTest, SendsToolsHistoryAndOptionsInTheWireShape) {
  server_.Enqueue(Stream(TextStream()));
  ChatRequest r;
  r.system.cacheable_prefix = "Rules.";
  r.messages.push_back({Role::kUser, "Find the jank."});
  r.messages.push_back({Role::kAssistant, "", {{"call_1", "execute_sql", R"({"sql":"SELECT 1"})"},
                                               {"call_2", "list_skills", "{}"}}});
  r.messages.push_back({Role::kTool, "1 row", {}, "call_1", false});
  r.messages.push_back({Role::kTool, "no such skill dir", {}, "call_2", true});
  r.tools.push_back({"execute_sql", "Run SQL.",
                     {{"type", "object"},
                      {"properties", {{"sql", {{"type", "string"}}}}},
                      {"required", {"sql"}}}});
  r.options.tool_choice = ToolChoice::kRequired;
  r.options.temperature = 0.2;
  r.options.stop = {"END"};
  r.options.max_tokens = 512;
  r.options.model = "gpt-override";
  OpenAiChatProvider provider = Provider();
  auto response = provider.Chat(r, {});
  ASSERT_TRUE(response.ok()) << response.status();
  json expected = json::parse(R"({
    "model": "gpt-override",
    "messages": [
      {"role": "system", "content": "Rules."},
      {"role": "user", "content": "Find the jank."},
      {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "execute_sql", "arguments": "{\"sql\":\"SELECT 1\"}"}},
        {"id": "call_2", "type": "function", "function": {"name": "list_skills", "arguments": "{}"}}]},
      {"role": "tool", "tool_call_id": "call_1", "content": "1 row"},
      {"role": "tool", "tool_call_id": "call_2", "content": "ERROR: no such skill dir"}],
    "max_tokens": 512,
    "temperature": 0.2,
    "stop": ["END"],
    "tools": [{"type": "function", "function": {"name": "execute_sql", "description": "Run SQL.",
      "parameters": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]}}}],
    "tool_choice": "required",
    "stream": true,
    "stream_options": {"include_usage": true}
  })");
  EXPECT_EQ(json::parse(server_.Requests().at(0).body), expected) << server_.Requests().at(0).body;
}

TEST_F(OpenAiProviderTest, InvalidUtf8InTheConversationIsReplacedNotThrown) {
  server_.Enqueue(Stream(TextStream()));
  ChatRequest r = Hello();
  r.messages.push_back({Role::kAssistant, "", {{"call_1", "execute_sql", "{}"}}});
  r.messages.push_back({Role::kTool, std::string("thread name \xff\xfe broken"), {}, "call_1", false});
  OpenAiChatProvider provider = Provider();
  auto response = provider.Chat(r, {});
  ASSERT_TRUE(response.ok()) << response.status();
  json body = json::parse(server_.Requests().at(0).body);
  EXPECT_EQ(body["messages"].back()["content"], "thread name \xEF\xBF\xBD\xEF\xBF\xBD broken");
}

TEST_F(OpenAiProviderTest, NonStreamingResponse) {
  server_.Enqueue(JsonResponse(200, R"({
    "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-test-1",
    "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
      "content": "Let me look.", "tool_calls": [{"id": "call_9", "type": "function",
      "function": {"name": "lookup_sql_schema", "arguments": "{\"table\":\"slice\"}"}}]}}],
    "usage": {"prompt_tokens": 10, "completion_tokens": 4, "prompt_tokens_details": {"cached_tokens": 0}}})"));
  ChatRequest r = Hello();
  r.options.stream = false;
  OpenAiChatProvider provider = Provider();
  Recorder rec;
  auto response = provider.Chat(r, rec.Callbacks());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->text, "Let me look.");
  ASSERT_EQ(response->tool_calls.size(), 1u);
  EXPECT_EQ(response->tool_calls[0].name, "lookup_sql_schema");
  EXPECT_EQ(response->tool_calls[0].arguments, R"({"table":"slice"})");
  EXPECT_EQ(response->finish_reason, FinishReason::kToolCalls);
  EXPECT_EQ(response->usage.output_tokens, 4);
  EXPECT_EQ(rec.tool_calls.size(), 1u);
  json body = json::parse(server_.Requests().at(0).body);
  EXPECT_FALSE(body.contains("stream"));
  EXPECT_FALSE(body.contains("stream_options"));
  EXPECT_EQ(server_.Requests().at(0).headers["accept"], "application/json");
}

TEST_F(OpenAiProviderTest, RetriesA429HonouringRetryAfterThenSucceeds) {
  ScriptedResponse limited = JsonResponse(
      429, R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})");
  limited.headers = {{"retry-after", "0.2"}};
  server_.Enqueue(limited);
  server_.Enqueue(Stream(TextStream()));
  OpenAiChatProvider provider = Provider();
  const auto start = std::chrono::steady_clock::now();
  auto response = provider.Chat(Hello(), {});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_GE(testing::MsSince(start), 200);  // waited as told, not the 1 ms backoff
  EXPECT_EQ(provider.last_attempts(), 2);
  EXPECT_EQ(server_.RequestCount(), 2);
  EXPECT_EQ(response->text, "Main thread is blocked.");
}

TEST_F(OpenAiProviderTest, Retries500ThenSucceeds) {
  server_.Enqueue(JsonResponse(500, R"({"error":{"message":"internal","type":"server_error"}})"));
  server_.Enqueue(JsonResponse(502, "<html>bad gateway</html>"));
  server_.Enqueue(Stream(TextStream()));
  OpenAiChatProvider provider = Provider();
  auto response = provider.Chat(Hello(), {});
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(provider.last_attempts(), 3);
  // Each attempt sent the same body.
  auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].body, requests[2].body);
}

TEST_F(OpenAiProviderTest, RateLimitedOnEveryAttemptSaysHowManyTries) {
  for (int i = 0; i < 3; ++i) {
    server_.Enqueue(JsonResponse(429, R"({"error":{"message":"Rate limit reached","type":"requests"}})"));
  }
  OpenAiChatProvider provider = Provider();
  auto response = provider.Chat(Hello(), {});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(response.status().message().find("rate limited after 3 attempts"), std::string::npos)
      << response.status();
  EXPECT_EQ(server_.RequestCount(), 3);
}

TEST_F(OpenAiProviderTest, BadKeyIsNotRetriedAndTheKeyNeverAppears) {
  // The provider echoes the key back, as real ones do (partly masked).
  server_.Enqueue(JsonResponse(401, std::string(R"({"error":{"message":"Incorrect API key provided: )") +
                                        kTestKey + R"(.","type":"invalid_request_error","code":"invalid_api_key"}})"));
  server_.Enqueue(Stream(TextStream()));  // must not be reached
  OpenAiChatProvider provider = Provider();
  auto response = provider.Chat(Hello(), {});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_NE(response.status().message().find("API key rejected"), std::string::npos);
  EXPECT_EQ(response.status().ToString().find("SECRET"), std::string::npos) << response.status();
  EXPECT_EQ(server_.RequestCount(), 1);
  EXPECT_EQ(provider.last_attempts(), 1);
}

TEST_F(OpenAiProviderTest, BadRequestsAreNotRetried) {
  server_.Enqueue(JsonResponse(400, R"({"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}})"));
  server_.Enqueue(JsonResponse(404, R"({"error":{"message":"The model `gpt-nope` does not exist","type":"invalid_request_error","code":"model_not_found"}})"));
  server_.Enqueue(JsonResponse(403, R"({"error":{"message":"no access","type":"permission"}})"));
  OpenAiChatProvider provider = Provider();
  auto too_long = provider.Chat(Hello(), {});
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(too_long.status().message().find("context too long"), std::string::npos);
  auto unknown = provider.Chat(Hello(), {});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(unknown.status().message().find("unknown model 'gpt-test'"), std::string::npos);
  auto denied = provider.Chat(Hello(), {});
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(server_.RequestCount(), 3);  // one request each
}

TEST_F(OpenAiProviderTest, MalformedSseIsRetriedThenReported) {
  ScriptedResponse bad = Stream(SseData(R"({"choices":[{"index":0,"delta":{"content":)") + "data: [DONE]\n\n");
  server_.Enqueue(bad);
  server_.Enqueue(Stream(TextStream()));
  OpenAiChatProvider provider = Provider();
  auto recovered = provider.Chat(Hello(), {});
  ASSERT_TRUE(recovered.ok()) << recovered.status();
  EXPECT_EQ(provider.last_attempts(), 2);

  for (int i = 0; i < 3; ++i) server_.Enqueue(bad);
  auto failed = provider.Chat(Hello(), {});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(failed.status().message().find("malformed chunk"), std::string::npos) << failed.status();
  EXPECT_EQ(provider.last_attempts(), 3);
}

TEST_F(OpenAiProviderTest, ConnectionDroppedBeforeOutputIsRetried) {
  ScriptedResponse dropped = Stream(": processing\n\n" + SseData(R"({"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]})"));
  dropped.drop_connection = true;
  server_.Enqueue(dropped);
  server_.Enqueue(Stream(TextStream()));
  OpenAiChatProvider provider = Provider();
  Recorder rec;
  auto response = provider.Chat(Hello(), rec.Callbacks());
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(provider.last_attempts(), 2);
  EXPECT_EQ(rec.Text(), "Main thread is blocked.");  // nothing duplicated
}

TEST_F(OpenAiProviderTest, ConnectionDroppedAfterOutputIsReportedNotRetried) {
  std::string wire = TextStream();
  ScriptedResponse dropped = Stream(wire.substr(0, wire.find("is blocked")));
  dropped.drop_connection = true;
  server_.Enqueue(dropped);
  server_.Enqueue(Stream(TextStream()));
  OpenAiChatProvider provider = Provider();
  Recorder rec;
  auto response = provider.Chat(Hello(), rec.Callbacks());
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(response.status().message().find("not retried"), std::string::npos) << response.status();
  EXPECT_EQ(rec.Text(), "Main thread ");
  EXPECT_EQ(server_.RequestCount(), 1);
}

TEST_F(OpenAiProviderTest, StreamEndingWithoutFinishIsAnError) {
  std::string wire = TextStream();
  std::string cut = wire.substr(0, wire.find("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-test-0613\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\""));
  server_.Enqueue(Stream(cut));  // the body ends cleanly, but the answer did not
  OpenAiChatProvider provider = Provider();
  auto response = provider.Chat(Hello(), {});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(response.status().message().find("ended early"), std::string::npos) << response.status();
  EXPECT_EQ(server_.RequestCount(), 1);  // text was already delivered: not retried
}

TEST_F(OpenAiProviderTest, SlowServerPastTheDeadline) {
  ScriptedResponse slow = Stream(TextStream(), 40);
  slow.delay_between_chunks_ms = 100;
  server_.Enqueue(slow);
  ChatRequest r = Hello();
  r.options.timeout_ms = 300;
  OpenAiChatProvider provider = Provider();
  const auto start = std::chrono::steady_clock::now();
  auto response = provider.Chat(r, {});
  const int64_t elapsed = testing::MsSince(start);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kDeadlineExceeded) << response.status();
  EXPECT_GE(elapsed, 280);
  EXPECT_LT(elapsed, 2000);
}

TEST_F(OpenAiProviderTest, SilentServerHitsTheIdleTimeout) {
  ScriptedResponse silent = Stream(TextStream(), 200);
  silent.delay_between_chunks_ms = 1500;
  server_.Enqueue(silent);
  auto settings = testing::TestSettings(server_.BaseUrl() + "/v1", "gpt-test");
  settings.idle_timeout_ms = 300;
  settings.retry.max_attempts = 1;
  OpenAiChatProvider provider(settings);
  const auto start = std::chrono::steady_clock::now();
  auto response = provider.Chat(Hello(), {});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kDeadlineExceeded) << response.status();
  EXPECT_NE(response.status().message().find("idle timeout"), std::string::npos) << response.status();
  EXPECT_LT(testing::MsSince(start), 1500);
}

TEST_F(OpenAiProviderTest, CancellationMidStream) {
  ScriptedResponse slow = Stream(TextStream(), 60);
  slow.delay_between_chunks_ms = 30;
  server_.Enqueue(slow);
  OpenAiChatProvider provider = Provider();
  Recorder rec;
  StreamCallbacks callbacks = rec.Callbacks();
  callbacks.is_cancelled = [&rec] { return !rec.text_deltas.empty(); };
  auto response = provider.Chat(Hello(), callbacks);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kCancelled) << response.status();
  EXPECT_EQ(rec.Text(), "Main thread ");
  EXPECT_EQ(server_.RequestCount(), 1);
}

TEST_F(OpenAiProviderTest, CancellationWhileWaitingForTheFirstByte) {
  ScriptedResponse thinking = Stream(TextStream());
  thinking.delay_before_response_ms = 3000;
  server_.Enqueue(thinking);
  OpenAiChatProvider provider = Provider();
  const auto start = std::chrono::steady_clock::now();
  StreamCallbacks callbacks;
  callbacks.is_cancelled = [start] { return testing::MsSince(start) > 100; };
  auto response = provider.Chat(Hello(), callbacks);
  const int64_t elapsed = testing::MsSince(start);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kCancelled) << response.status();
  EXPECT_LT(elapsed, 1600);  // polled at least about once a second while waiting
}

TEST_F(OpenAiProviderTest, RetryAfterBeyondTheLimitOrTheDeadlineIsNotWaitedFor) {
  ScriptedResponse limited = JsonResponse(429, R"({"error":{"message":"Rate limit reached","type":"requests"}})");
  limited.headers = {{"retry-after", "600"}};
  server_.Enqueue(limited);
  OpenAiChatProvider provider = Provider();
  const auto start = std::chrono::steady_clock::now();
  auto response = provider.Chat(Hello(), {});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(response.status().message().find("retry after 600 s; not waiting"), std::string::npos)
      << response.status();
  EXPECT_LT(testing::MsSince(start), 1000);
  EXPECT_EQ(server_.RequestCount(), 1);

  limited.headers = {{"retry-after", "2"}};
  server_.Enqueue(limited);
  ChatRequest r = Hello();
  r.options.timeout_ms = 500;
  auto late = provider.Chat(r, {});
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_NE(late.status().message().find("rate limited"), std::string::npos) << late.status();
  EXPECT_EQ(server_.RequestCount(), 2);
}

TEST_F(OpenAiProviderTest, NothingListeningIsUnavailableAfterRetries) {
  int port;
  {
    ScriptedLlmServer gone;
    port = gone.port();
  }
  auto settings = testing::TestSettings("http://127.0.0.1:" + std::to_string(port) + "/v1", "m");
  OpenAiChatProvider provider(settings);
  auto response = provider.Chat(Hello(), {});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(response.status().message().find("cannot reach http://127.0.0.1:"), std::string::npos)
      << response.status();
  EXPECT_NE(response.status().message().find("after 3 attempts"), std::string::npos);
  EXPECT_EQ(provider.last_attempts(), 3);
}

TEST_F(OpenAiProviderTest, ReusesTheConnectionAcrossRequests) {
  server_.Enqueue(Stream(TextStream(), 50));
  server_.Enqueue(JsonResponse(400, R"({"error":{"message":"bad","type":"invalid_request_error"}})"));
  server_.Enqueue(Stream(TextStream()));
  OpenAiChatProvider provider = Provider();
  ASSERT_TRUE(provider.Chat(Hello(), {}).ok());
  ASSERT_FALSE(provider.Chat(Hello(), {}).ok());
  ASSERT_TRUE(provider.Chat(Hello(), {}).ok());
  auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_NE(requests[0].remote_port, 0);
  EXPECT_EQ(requests[1].remote_port, requests[0].remote_port);
  EXPECT_EQ(requests[2].remote_port, requests[0].remote_port);
}

TEST_F(OpenAiProviderTest, ANewConnectionAfterADroppedOne) {
  std::string wire = TextStream();
  ScriptedResponse dropped = Stream(wire.substr(0, wire.find("is blocked")));
  dropped.drop_connection = true;
  server_.Enqueue(dropped);
  server_.Enqueue(Stream(TextStream()));
  OpenAiChatProvider provider = Provider();
  ASSERT_FALSE(provider.Chat(Hello(), {}).ok());
  auto second = provider.Chat(Hello(), {});
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->text, "Main thread is blocked.");
  auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_NE(requests[1].remote_port, requests[0].remote_port);
}

TEST_F(OpenAiProviderTest, AzureStyleKeyHeaderAndNoAuthForLocalServers) {
  server_.Enqueue(Stream(TextStream()));
  server_.Enqueue(Stream(TextStream()));
  auto settings = testing::TestSettings(server_.BaseUrl() + "/openai/deployments/x", "gpt-test");
  settings.auth = AuthStyle::kApiKeyHeader;
  ASSERT_TRUE(OpenAiChatProvider(settings).Chat(Hello(), {}).ok());
  settings.api_key.clear();
  settings.auth = AuthStyle::kDefault;
  ASSERT_TRUE(OpenAiChatProvider(settings).Chat(Hello(), {}).ok());
  auto requests = server_.Requests();
  EXPECT_EQ(requests[0].path, "/openai/deployments/x/chat/completions");
  EXPECT_EQ(requests[0].headers["api-key"], kTestKey);
  EXPECT_EQ(requests[0].headers.count("authorization"), 0u);
  EXPECT_EQ(requests[1].headers.count("authorization"), 0u);
  EXPECT_EQ(requests[1].headers.count("api-key"), 0u);
}

}  // namespace
}  // namespace tw::llm
