#pragma once
// Whole model turns written as the providers stream them — OpenAI Chat Completions chunks and
// Anthropic Messages events — for tests that script a conversation on the loopback server:
// text in pieces, tool calls with their arguments split across chunks, usage, the end marker.

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/llm/scripted_llm_server.h"

namespace tw::llm::testing {

struct Call {
  std::string id, name, arguments;
};

// Splits `text` into pieces of about `n` bytes, never inside a UTF-8 character: providers stream
// JSON chunks, which are always valid UTF-8.
inline std::vector<std::string> Pieces(const std::string& text, size_t n) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = std::min(text.size(), at + n);
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

// ---- OpenAI Chat Completions streaming chunks ----

inline std::string OpenAiChunk(const nlohmann::json& delta, const nlohmann::json& finish = nullptr) {
  return SseData(nlohmann::json{{"id", "chatcmpl-e2e"},
                      {"object", "chat.completion.chunk"},
                      {"model", "gpt-4o-2024-08-06"},
                      {"choices", {{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}}}}
                     .dump());
}

inline std::string OpenAiUsage() {
  return SseData(nlohmann::json{{"id", "chatcmpl-e2e"},
                      {"object", "chat.completion.chunk"},
                      {"choices", nlohmann::json::array()},
                      {"usage", {{"prompt_tokens", 3000},
                                 {"completion_tokens", 120},
                                 {"prompt_tokens_details", {{"cached_tokens", 2048}}}}}}
                     .dump());
}

// Tool calls as the API streams them: id and name first, the arguments in small pieces.
inline ScriptedResponse OpenAiToolCalls(const std::vector<Call>& calls, const std::string& text = "") {
  ScriptedResponse r;
  r.chunks.push_back(OpenAiChunk({{"role", "assistant"}, {"content", text}}));
  for (size_t i = 0; i < calls.size(); ++i) {
    r.chunks.push_back(OpenAiChunk(
        {{"tool_calls", {{{"index", i}, {"id", calls[i].id}, {"type", "function"},
                          {"function", {{"name", calls[i].name}, {"arguments", ""}}}}}}}));
    for (const std::string& piece : Pieces(calls[i].arguments, 9)) {
      r.chunks.push_back(OpenAiChunk(
          {{"tool_calls", {{{"index", i}, {"function", {{"arguments", piece}}}}}}}));
    }
  }
  r.chunks.push_back(OpenAiChunk(nlohmann::json::object(), "tool_calls"));
  r.chunks.push_back(OpenAiUsage());
  r.chunks.push_back("data: [DONE]\n\n");
  return r;
}

inline ScriptedResponse OpenAiText(const std::string& text) {
  ScriptedResponse r;
  r.chunks.push_back(OpenAiChunk({{"role", "assistant"}, {"content", ""}}));
  for (const std::string& piece : Pieces(text, 40)) r.chunks.push_back(OpenAiChunk({{"content", piece}}));
  r.chunks.push_back(OpenAiChunk(nlohmann::json::object(), "stop"));
  r.chunks.push_back(OpenAiUsage());
  r.chunks.push_back("data: [DONE]\n\n");
  return r;
}

// ---- Anthropic Messages streaming events ----

inline ScriptedResponse AnthropicTurn(const std::string& text, const std::vector<Call>& calls) {
  ScriptedResponse r;
  r.chunks.push_back(SseEvent("message_start",
                              nlohmann::json{{"type", "message_start"},
                                   {"message", {{"id", "msg_e2e"}, {"type", "message"}, {"role", "assistant"},
                                                {"model", "claude-sonnet-4-5"}, {"content", nlohmann::json::array()},
                                                {"usage", {{"input_tokens", 900}, {"output_tokens", 1},
                                                           {"cache_read_input_tokens", 2000}}}}}}
                                  .dump()));
  int index = 0;
  if (!text.empty()) {
    r.chunks.push_back(SseEvent("content_block_start", nlohmann::json{{"type", "content_block_start"}, {"index", index},
                                                            {"content_block", {{"type", "text"}, {"text", ""}}}}
                                                           .dump()));
    r.chunks.push_back(SseEvent("ping", R"({"type": "ping"})"));
    r.chunks.push_back(SseEvent("content_block_delta",
                                nlohmann::json{{"type", "content_block_delta"}, {"index", index},
                                     {"delta", {{"type", "text_delta"}, {"text", text}}}}
                                    .dump()));
    r.chunks.push_back(SseEvent("content_block_stop", nlohmann::json{{"type", "content_block_stop"}, {"index", index}}.dump()));
    ++index;
  }
  for (const Call& c : calls) {
    r.chunks.push_back(SseEvent("content_block_start",
                                nlohmann::json{{"type", "content_block_start"}, {"index", index},
                                     {"content_block", {{"type", "tool_use"}, {"id", c.id}, {"name", c.name},
                                                        {"input", nlohmann::json::object()}}}}
                                    .dump()));
    for (const std::string& piece : Pieces(c.arguments, 7)) {
      r.chunks.push_back(SseEvent("content_block_delta",
                                  nlohmann::json{{"type", "content_block_delta"}, {"index", index},
                                       {"delta", {{"type", "input_json_delta"}, {"partial_json", piece}}}}
                                      .dump()));
    }
    r.chunks.push_back(SseEvent("content_block_stop", nlohmann::json{{"type", "content_block_stop"}, {"index", index}}.dump()));
    ++index;
  }
  r.chunks.push_back(SseEvent("message_delta",
                              nlohmann::json{{"type", "message_delta"},
                                   {"delta", {{"stop_reason", calls.empty() ? "end_turn" : "tool_use"}}},
                                   {"usage", {{"output_tokens", 80}}}}
                                  .dump()));
  r.chunks.push_back(SseEvent("message_stop", R"({"type": "message_stop"})"));
  return r;
}

}  // namespace tw::llm::testing
