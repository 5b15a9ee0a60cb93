// Images in the conversation (a client's capture_view rendering) on both wire protocols, sent to
// the scripted loopback server and asserted on the request body it received: OpenAI Chat
// Completions carries them as image_url data URLs in a user message after the tool results (tool
// messages are text only), Anthropic Messages as image blocks inside the tool_result; a model
// configured without image support reads a text note instead.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "libs/llm/anthropic_messages_provider.h"
#include "libs/llm/image_content.h"
#include "libs/llm/llm_config.h"
#include "libs/llm/openai_chat_provider.h"
#include "tests/llm/provider_test_util.h"
#include "tests/llm/scripted_llm_server.h"
#include "tests/llm/tiny_png.h"
#include "tests/llm/wire_scripts.h"

namespace tw::llm {
namespace {

using nlohmann::json;
using testing::ScriptedLlmServer;

const std::string& kPng = testing::TinyPng();

// The model selected a slice and asked for a timeline capture; both tool results came back,
// the second with an image.
ChatRequest AfterCapture() {
  ChatRequest r;
  r.system.rest = "Rules.";
  r.messages.push_back({Role::kUser, "Why is frame 120 late?"});
  r.messages.push_back({Role::kAssistant, "",
                        {{"call_1", "select_slice", R"({"slice_id": 42})"},
                         {"call_2", "capture_view", R"({"view": "timeline"})"}}});
  r.messages.push_back({Role::kTool, R"({"selected": true})", {}, "call_1", false});
  Message capture{Role::kTool, "capture_view returned an image.", {}, "call_2", false};
  capture.images.push_back({"image/png", kPng});
  r.messages.push_back(capture);
  return r;
}

TEST(ImageContentTest, EncodesAsBase64DataUrls) {
  const ImageContent image{"image/png", kPng};
  EXPECT_EQ(ImageBase64({"image/png", "abc"}), "YWJj");
  EXPECT_EQ(ImageDataUrl(image).rfind("data:image/png;base64,iVBORw0KGgo", 0), 0u);
  EXPECT_TRUE(IsSupportedImageType("image/jpeg"));
  EXPECT_FALSE(IsSupportedImageType("image/svg+xml"));
  EXPECT_NE(ImageOmittedNote(image).find("67 bytes"), std::string::npos);
}

TEST(ImageContentTest, OpenAiSendsTheImageInAUserMessageAfterTheToolResults) {
  ScriptedLlmServer server;
  server.Enqueue(testing::OpenAiText("It is blocked."));
  OpenAiChatProvider provider(testing::TestSettings(server.BaseUrl() + "/v1", "gpt-4o"));
  ASSERT_TRUE(provider.Chat(AfterCapture(), {}).ok());
  const json body = json::parse(server.Requests().at(0).body);
  const json& messages = body["messages"];
  ASSERT_EQ(messages.size(), 6u) << messages.dump(1);
  EXPECT_EQ(messages[3]["role"], "tool");
  EXPECT_EQ(messages[3]["tool_call_id"], "call_1");
  EXPECT_EQ(messages[4]["role"], "tool");
  EXPECT_EQ(messages[4]["tool_call_id"], "call_2");
  EXPECT_NE(messages[4]["content"].get<std::string>().find("follow in the next user message"),
            std::string::npos);
  const json& user = messages[5];
  EXPECT_EQ(user["role"], "user");
  ASSERT_EQ(user["content"].size(), 2u);
  EXPECT_EQ(user["content"][0]["type"], "text");
  EXPECT_NE(user["content"][0]["text"].get<std::string>().find("call_2"), std::string::npos);
  EXPECT_EQ(user["content"][1]["type"], "image_url");
  EXPECT_EQ(user["content"][1]["image_url"]["url"], ImageDataUrl({"image/png", kPng}));
}

TEST(ImageContentTest, AnthropicSendsTheImageInsideTheToolResult) {
  ScriptedLlmServer server;
  server.Enqueue(testing::AnthropicTurn("It is blocked.", {}));
  AnthropicMessagesProvider provider(testing::TestSettings(server.BaseUrl(), "claude-sonnet-4-5"));
  ASSERT_TRUE(provider.Chat(AfterCapture(), {}).ok());
  const json body = json::parse(server.Requests().at(0).body);
  const json& last = body["messages"].back();
  EXPECT_EQ(last["role"], "user");
  ASSERT_EQ(last["content"].size(), 2u) << last.dump(1);
  EXPECT_EQ(last["content"][0]["content"], R"({"selected": true})");
  const json& result = last["content"][1];
  EXPECT_EQ(result["type"], "tool_result");
  EXPECT_EQ(result["tool_use_id"], "call_2");
  ASSERT_EQ(result["content"].size(), 2u);
  EXPECT_EQ(result["content"][0], json({{"type", "text"}, {"text", "capture_view returned an image."}}));
  EXPECT_EQ(result["content"][1]["type"], "image");
  EXPECT_EQ(result["content"][1]["source"],
            json({{"type", "base64"}, {"media_type", "image/png"}, {"data", ImageBase64({"image/png", kPng})}}));
}

TEST(ImageContentTest, ModelsWithoutImagesReadANoteOnBothProtocols) {
  ScriptedLlmServer server;
  server.Enqueue(testing::OpenAiText("ok"));
  server.Enqueue(testing::AnthropicTurn("ok", {}));
  ProviderSettings openai = testing::TestSettings(server.BaseUrl() + "/v1", "text-only");
  openai.images = false;
  ASSERT_TRUE(OpenAiChatProvider(openai).Chat(AfterCapture(), {}).ok());
  ProviderSettings anthropic = testing::TestSettings(server.BaseUrl(), "text-only");
  anthropic.images = false;
  ASSERT_TRUE(AnthropicMessagesProvider(anthropic).Chat(AfterCapture(), {}).ok());
  const auto requests = server.Requests();
  const std::string openai_body = requests.at(0).body;
  const std::string anthropic_body = requests.at(1).body;
  for (const std::string& body : {openai_body, anthropic_body}) {
    EXPECT_EQ(body.find("base64"), std::string::npos);
    EXPECT_NE(body.find("does not accept images"), std::string::npos);
  }
  EXPECT_EQ(json::parse(openai_body)["messages"].size(), 5u);  // no extra user message
}

TEST(ImageContentTest, TheImagesSettingIsConfigurable) {
  auto env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "TRACEWISE_LLM_PROVIDER") return "openai";
    if (name == "TRACEWISE_LLM_MODEL") return "local-text-model";
    if (name == "TRACEWISE_LLM_BASE_URL") return "http://127.0.0.1:1/v1";
    if (name == "TRACEWISE_LLM_IMAGES") return "off";
    return std::nullopt;
  };
  auto config = LoadLlmConfig("", env);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_FALSE(config->images);
  EXPECT_FALSE(ToProviderSettings(*config).images);
  auto bad = LoadLlmConfig("", [&](const std::string& name) -> std::optional<std::string> {
    if (name == "TRACEWISE_LLM_IMAGES") return "maybe";
    return env(name);
  });
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tw::llm
