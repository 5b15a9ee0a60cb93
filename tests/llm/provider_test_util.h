#pragma once
// Shared pieces of the provider tests: settings pointing at the scripted server with tiny
// backoffs, a recorder for the stream callbacks, and chunking of a wire stream.

#include <chrono>
#include <string>
#include <vector>

#include "libs/llm/llm_provider.h"
#include "libs/llm/provider_settings.h"
#include "tests/llm/scripted_llm_server.h"

namespace tw::llm::testing {

inline constexpr char kTestKey[] = "sk-test-SECRET-KEY-0123456789";

inline ProviderSettings TestSettings(const std::string& base_url, const std::string& model) {
  ProviderSettings s;
  s.base_url = base_url;
  s.api_key = kTestKey;
  s.model = model;
  s.connect_timeout_ms = 2000;
  s.idle_timeout_ms = 5000;
  s.retry.max_attempts = 3;
  s.retry.initial_backoff_ms = 1;  // tests must not sleep
  s.retry.max_backoff_ms = 5;
  s.jitter_seed = 7;
  return s;
}

// Records what the callbacks saw, in order.
struct Recorder {
  std::vector<std::string> text_deltas;
  std::vector<ToolCall> tool_calls;
  std::vector<Usage> usages;
  StreamCallbacks Callbacks() {
    StreamCallbacks c;
    c.on_text = [this](const std::string& d) { text_deltas.push_back(d); };
    c.on_tool_call = [this](const ToolCall& t) { tool_calls.push_back(t); };
    c.on_usage = [this](const Usage& u) { usages.push_back(u); };
    return c;
  }
  std::string Text() const {
    std::string all;
    for (const auto& d : text_deltas) all += d;
    return all;
  }
};

// Cuts a wire stream into pieces of `n` bytes: events split at arbitrary points.
inline std::vector<std::string> SplitEvery(const std::string& stream, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < stream.size(); i += n) out.push_back(stream.substr(i, n));
  return out;
}

inline ScriptedResponse Stream(const std::string& wire, size_t piece = 0) {
  ScriptedResponse r;
  r.chunks = piece == 0 ? std::vector<std::string>{wire} : SplitEvery(wire, piece);
  return r;
}

inline ScriptedResponse JsonResponse(int status, const std::string& body) {
  ScriptedResponse r;
  r.status = status;
  r.content_type = "application/json";
  r.chunks = {body};
  return r;
}

inline int64_t MsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t)
      .count();
}

}  // namespace tw::llm::testing
