#include "libs/llm/openai_chat_provider.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "libs/llm/sse_parser.h"

namespace tw::llm {
namespace {

using nlohmann::json;

const char* ToolChoiceName(ToolChoice c) {
  switch (c) {
    case ToolChoice::kNone: return "none";
    case ToolChoice::kRequired: return "required";
    case ToolChoice::kAuto: break;
  }
  return "auto";
}

FinishReason ParseFinishReason(const std::string& r) {
  if (r == "stop") return FinishReason::kStop;
  if (r == "tool_calls" || r == "function_call") return FinishReason::kToolCalls;
  if (r == "length") return FinishReason::kMaxTokens;
  if (r == "content_filter") return FinishReason::kContentFilter;
  return FinishReason::kOther;
}

int64_t IntField(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

std::string StringField(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// OpenAI's prompt_tokens already include the cached ones (our Usage convention too).
Usage ParseUsage(const json& u) {
  Usage usage;
  usage.input_tokens = IntField(u, "prompt_tokens");
  usage.output_tokens = IntField(u, "completion_tokens");
  if (auto d = u.find("prompt_tokens_details"); d != u.end() && d->is_object()) {
    usage.cached_input_tokens = IntField(*d, "cached_tokens");
  }
  return usage;
}

// A tool call being assembled from stream fragments.
struct PartialCall {
  std::string id;
  std::string name;
  std::string arguments;
};

class OpenAiDecoder : public ResponseDecoder {
 public:
  OpenAiDecoder(bool stream, const StreamCallbacks& callbacks)
      : stream_(stream),
        callbacks_(callbacks),
        parser_([this](const SseEvent& e) { return OnEvent(e); }) {}

  bool OnStreamBytes(std::string_view bytes) override { return parser_.Feed(bytes); }

  absl::Status Finish(const HttpResponse& response) override {
    if (!stream_) return DecodeWhole(response.body);
    if (!decode_error_.ok()) return decode_error_;
    if (!done_ && !finish_seen_) {
      return absl::UnavailableError(
          absl::StrCat("openai stream ended early (no finish_reason or [DONE] after ",
                       parser_.events_dispatched(), " chunks)"));
    }
    Complete();
    return absl::OkStatus();
  }

  ChatResponse TakeResponse() override { return std::move(response_); }

 private:
  bool OnEvent(const SseEvent& e) {
    if (done_) return true;
    if (e.data == "[DONE]") {
      done_ = true;
      return true;
    }
    json chunk = json::parse(e.data, nullptr, /*allow_exceptions=*/false);
    if (!chunk.is_object()) {
      decode_error_ = absl::UnavailableError(absl::StrCat(
          "malformed chunk in the openai stream: ", e.data.substr(0, 120)));
      return false;
    }
    if (auto err = chunk.find("error"); err != chunk.end() && !err->is_null()) {
      stream_error_ = ParseProviderError(e.data);
      stream_error_status_ = HttpStatusForErrorType(stream_error_);
      return false;
    }
    if (response_.model.empty()) response_.model = StringField(chunk, "model");
    if (auto u = chunk.find("usage"); u != chunk.end() && u->is_object()) {
      response_.usage = ParseUsage(*u);
      usage_seen_ = true;
    }
    auto choices = chunk.find("choices");
    if (choices == chunk.end() || !choices->is_array()) return true;
    for (const json& choice : *choices) {
      if (IntField(choice, "index") != 0) continue;  // we never ask for n > 1
      if (auto d = choice.find("delta"); d != choice.end() && d->is_object()) ApplyDelta(*d);
      if (auto f = choice.find("finish_reason"); f != choice.end() && f->is_string()) {
        finish_reason_ = f->get<std::string>();
        finish_seen_ = true;
        EmitToolCalls();
      }
    }
    return true;
  }

  void ApplyDelta(const json& delta) {
    if (auto c = delta.find("content"); c != delta.end() && c->is_string()) {
      const std::string& text = c->get_ref<const std::string&>();
      if (!text.empty()) {
        response_.text += text;
        delivered_output_ = true;
        if (callbacks_.on_text) callbacks_.on_text(text);
      }
    }
    auto calls = delta.find("tool_calls");
    if (calls == delta.end() || !calls->is_array()) return;
    for (const json& fragment : *calls) {
      const std::string id = StringField(fragment, "id");
      int64_t index;
      if (auto i = fragment.find("index"); i != fragment.end() && i->is_number_integer()) {
        index = i->get<int64_t>();
      } else if (!id.empty() && (partial_.empty() || partial_.rbegin()->second.id != id)) {
        index = partial_.empty() ? 0 : partial_.rbegin()->first + 1;  // servers without index
      } else {
        index = partial_.empty() ? 0 : partial_.rbegin()->first;
      }
      PartialCall& call = partial_[index];
      if (!id.empty() && call.id.empty()) call.id = id;
      if (auto fn = fragment.find("function"); fn != fragment.end() && fn->is_object()) {
        const std::string name = StringField(*fn, "name");
        if (!name.empty() && call.name.empty()) call.name = name;
        if (auto a = fn->find("arguments"); a != fn->end()) {
          // Arguments are text fragments; a server that sends a parsed object gets it dumped.
          call.arguments += a->is_string() ? a->get<std::string>() : a->dump();
        }
      }
    }
  }

  // Tool calls are reported once, complete, in index order.
  void EmitToolCalls() {
    if (tool_calls_emitted_) return;
    tool_calls_emitted_ = true;
    for (auto& [index, p] : partial_) {
      ToolCall call{p.id.empty() ? absl::StrCat("call_", index) : p.id, p.name, p.arguments};
      if (call.arguments.empty()) call.arguments = "{}";
      response_.tool_calls.push_back(call);
      delivered_output_ = true;
      if (callbacks_.on_tool_call) callbacks_.on_tool_call(call);
    }
  }

  void Complete() {
    EmitToolCalls();
    response_.finish_reason = ParseFinishReason(finish_reason_);
    // Some compatible servers say "stop" although they asked for tools.
    if (!response_.tool_calls.empty() && response_.finish_reason == FinishReason::kStop) {
      response_.finish_reason = FinishReason::kToolCalls;
    }
    if (usage_seen_ && callbacks_.on_usage) callbacks_.on_usage(response_.usage);
  }

  absl::Status DecodeWhole(const std::string& body) {
    json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) {
      return absl::UnavailableError(
          absl::StrCat("malformed openai response: ", body.substr(0, 120)));
    }
    response_.model = StringField(j, "model");
    if (auto u = j.find("usage"); u != j.end() && u->is_object()) {
      response_.usage = ParseUsage(*u);
      usage_seen_ = true;
    }
    auto choices = j.find("choices");
    if (choices == j.end() || !choices->is_array() || choices->empty()) {
      return absl::UnavailableError("openai response has no choices");
    }
    const json& choice = (*choices)[0];
    finish_reason_ = StringField(choice, "finish_reason");
    if (auto m = choice.find("message"); m != choice.end() && m->is_object()) {
      response_.text = StringField(*m, "content");
      if (!response_.text.empty()) {
        delivered_output_ = true;
        if (callbacks_.on_text) callbacks_.on_text(response_.text);
      }
      if (auto calls = m->find("tool_calls"); calls != m->end() && calls->is_array()) {
        int64_t index = 0;
        for (const json& c : *calls) {
          PartialCall& p = partial_[index++];
          p.id = StringField(c, "id");
          if (auto fn = c.find("function"); fn != c.end() && fn->is_object()) {
            p.name = StringField(*fn, "name");
            if (auto a = fn->find("arguments"); a != fn->end()) {
              p.arguments = a->is_string() ? a->get<std::string>() : a->dump();
            }
          }
        }
      }
    }
    Complete();
    return absl::OkStatus();
  }

  const bool stream_;
  const StreamCallbacks& callbacks_;
  SseParser parser_;
  ChatResponse response_;
  std::map<int64_t, PartialCall> partial_;
  std::string finish_reason_;
  bool finish_seen_ = false;
  bool done_ = false;
  bool usage_seen_ = false;
  bool tool_calls_emitted_ = false;
};

bool HostIsOpenAi(const std::string& base_url) {
  return base_url.find("://api.openai.com") != std::string::npos;
}

json ImageUrlPart(const ImageContent& image) {
  return {{"type", "image_url"}, {"image_url", {{"url", ImageDataUrl(image)}}}};
}

// Text with images as image_url parts, or with a note per image for models without vision.
json UserContent(const std::string& text, const std::vector<ImageContent>& images, bool vision) {
  if (images.empty()) return text;
  if (!vision) {
    std::string out = text;
    for (const ImageContent& image : images) absl::StrAppend(&out, "\n", ImageOmittedNote(image));
    return out;
  }
  json parts = json::array();
  if (!text.empty()) parts.push_back({{"type", "text"}, {"text", text}});
  for (const ImageContent& image : images) parts.push_back(ImageUrlPart(image));
  return parts;
}

}  // namespace

json BuildOpenAiChatBody(const ChatRequest& request, const std::string& model,
                         bool max_completion_tokens, bool images) {
  json messages = json::array();
  const std::string system = request.system.Joined();
  if (!system.empty()) messages.push_back({{"role", "system"}, {"content", system}});
  // Tool messages carry text only: the images of a run of tool results follow it in one user
  // message (after the last tool message, so every tool_call still gets its answer first).
  json tool_images = json::array();
  for (size_t i = 0; i < request.messages.size(); ++i) {
    const Message& m = request.messages[i];
    switch (m.role) {
      case Role::kUser:
        messages.push_back({{"role", "user"}, {"content", UserContent(m.text, m.images, images)}});
        break;
      case Role::kAssistant: {
        json a = {{"role", "assistant"}};
        // With tool calls and no text the content is null, as the API documents.
        a["content"] = m.text.empty() && !m.tool_calls.empty() ? json(nullptr) : json(m.text);
        if (!m.tool_calls.empty()) {
          json calls = json::array();
          for (const ToolCall& c : m.tool_calls) {
            calls.push_back({{"id", c.id},
                             {"type", "function"},
                             {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
          }
          a["tool_calls"] = std::move(calls);
        }
        messages.push_back(std::move(a));
        break;
      }
      case Role::kTool: {
        // The protocol has no error flag for tool results: say it in the content.
        std::string content = m.tool_error ? "ERROR: " + m.text : m.text;
        if (!m.images.empty() && images) {
          absl::StrAppend(&content, "\n[", m.images.size(),
                          " image(s) returned by this call follow in the next user message.]");
          tool_images.push_back({{"type", "text"},
                                 {"text", absl::StrCat("Image(s) returned by tool call ", m.tool_call_id, ":")}});
          for (const ImageContent& image : m.images) tool_images.push_back(ImageUrlPart(image));
        } else {
          for (const ImageContent& image : m.images) absl::StrAppend(&content, "\n", ImageOmittedNote(image));
        }
        messages.push_back({{"role", "tool"}, {"tool_call_id", m.tool_call_id}, {"content", content}});
        const bool last_of_run = i + 1 == request.messages.size() || request.messages[i + 1].role != Role::kTool;
        if (last_of_run && !tool_images.empty()) {
          messages.push_back({{"role", "user"}, {"content", std::move(tool_images)}});
          tool_images = json::array();
        }
        break;
      }
    }
  }
  json body = {{"model", model}, {"messages", std::move(messages)}};
  body[max_completion_tokens ? "max_completion_tokens" : "max_tokens"] = request.options.max_tokens;
  if (request.options.temperature) body["temperature"] = *request.options.temperature;
  if (!request.options.stop.empty()) body["stop"] = request.options.stop;
  if (!request.tools.empty()) {
    json tools = json::array();
    for (const ToolSchema& t : request.tools) {
      json fn = {{"name", t.name}, {"description", t.description}};
      fn["parameters"] = t.parameters.is_null() ? json{{"type", "object"}, {"properties", json::object()}}
                                                : t.parameters;
      tools.push_back({{"type", "function"}, {"function", std::move(fn)}});
    }
    body["tools"] = std::move(tools);
    body["tool_choice"] = ToolChoiceName(request.options.tool_choice);
  }
  if (request.options.stream) {
    body["stream"] = true;
    body["stream_options"] = {{"include_usage", true}};
  }
  return body;
}

std::unique_ptr<ResponseDecoder> MakeOpenAiDecoder(bool stream, const StreamCallbacks& callbacks) {
  return std::make_unique<OpenAiDecoder>(stream, callbacks);
}

OpenAiChatProvider::OpenAiChatProvider(ProviderSettings settings)
    : settings_(std::move(settings)) {}

absl::StatusOr<ChatResponse> OpenAiChatProvider::Chat(const ChatRequest& request,
                                                      const StreamCallbacks& callbacks) {
  const std::string model = request.options.model.empty() ? settings_.model : request.options.model;
  const bool completion_tokens =
      settings_.openai_max_completion_tokens.value_or(HostIsOpenAi(settings_.base_url));
  HttpRequest http;
  http.url = JoinUrl(settings_.base_url, "/chat/completions");
  // Trace text may hold invalid UTF-8: replace it rather than throw.
  http.body = BuildOpenAiChatBody(request, model, completion_tokens, settings_.images)
                  .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  AddStandardHeaders(settings_, AuthStyle::kBearer, request.options.stream, http);
  const TransportSettings transport = TransportFor("openai", settings_, &pool_);
  AttemptStats stats;
  auto result = PostWithRetries(
      transport, std::move(http), request.options, model, callbacks,
      [&] { return MakeOpenAiDecoder(request.options.stream, callbacks); }, &stats);
  last_attempts_ = stats.attempts;
  return result;
}

}  // namespace tw::llm
