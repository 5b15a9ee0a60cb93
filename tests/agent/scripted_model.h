#pragma once
// A model for agent tests and benchmarks: each call's answer is written per call by the test
// (a function of the request it receives, so it can read what the loop sent), text is streamed
// in two pieces as a provider would, and every request is kept for assertions.

#include <functional>
#include <string>
#include <vector>

#include "libs/common/utf8.h"
#include "libs/llm/llm_provider.h"

namespace tw::agent::agent_test {

using Script = std::function<absl::StatusOr<llm::ChatResponse>(const llm::ChatRequest&)>;

class ScriptedModel : public llm::LlmProvider {
 public:
  explicit ScriptedModel(std::vector<Script> script) : script_(std::move(script)) {}

  absl::StatusOr<llm::ChatResponse> Chat(const llm::ChatRequest& request,
                                         const llm::StreamCallbacks& callbacks) override {
    requests.push_back(request);
    if (calls_ >= script_.size()) return absl::InternalError("script exhausted");
    auto response = script_[calls_++](request);
    if (response.ok() && callbacks.on_text && !response->text.empty()) {
      const std::string first = Utf8Prefix(response->text, response->text.size() / 2);
      callbacks.on_text(first);
      callbacks.on_text(response->text.substr(first.size()));
    }
    if (response.ok()) {
      response->usage = {1000, 100, 600, 0};
      response->finish_reason =
          response->tool_calls.empty() ? llm::FinishReason::kStop : llm::FinishReason::kToolCalls;
    }
    return response;
  }
  std::string Name() const override { return "scripted"; }
  std::string Model() const override { return "scripted-1"; }

  std::vector<llm::ChatRequest> requests;

 private:
  std::vector<Script> script_;
  size_t calls_ = 0;
};

inline llm::ChatResponse Calls(std::vector<llm::ToolCall> calls, std::string text = "") {
  llm::ChatResponse r;
  r.text = std::move(text);
  r.tool_calls = std::move(calls);
  return r;
}

inline llm::ChatResponse Text(std::string text) {
  llm::ChatResponse r;
  r.text = std::move(text);
  return r;
}

}  // namespace tw::agent::agent_test
