#include "libs/llm/anthropic_messages_provider.h"

#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/llm/sse_parser.h"

namespace tw::llm {
namespace {

using nlohmann::json;

FinishReason ParseStopReason(const std::string& r) {
  if (r == "end_turn") return FinishReason::kStop;
  if (r == "tool_use") return FinishReason::kToolCalls;
  if (r == "max_tokens") return FinishReason::kMaxTokens;
  if (r == "stop_sequence") return FinishReason::kStopSequence;
  if (r == "refusal") return FinishReason::kContentFilter;
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

// Anthropic reports uncached input, cache reads and cache writes separately; our Usage counts
// all prompt tokens in input_tokens (as OpenAI does) and the cached parts besides.
struct AnthropicUsage {
  int64_t input = 0, output = 0, cache_read = 0, cache_creation = 0;
  void Merge(const json& u) {
    // message_delta's usage is cumulative: take what it states, keep the rest.
    if (u.contains("input_tokens")) input = IntField(u, "input_tokens");
    if (u.contains("output_tokens")) output = IntField(u, "output_tokens");
    if (u.contains("cache_read_input_tokens")) cache_read = IntField(u, "cache_read_input_tokens");
    if (u.contains("cache_creation_input_tokens")) {
      cache_creation = IntField(u, "cache_creation_input_tokens");
    }
  }
  Usage ToUsage() const {
    Usage usage;
    usage.input_tokens = input + cache_read + cache_creation;
    usage.output_tokens = output;
    usage.cached_input_tokens = cache_read;
    usage.cache_creation_tokens = cache_creation;
    return usage;
  }
};

struct Block {
  std::string type;  // "text", "tool_use", "thinking", ...
  std::string id;
  std::string name;
  std::string json;  // input_json_delta fragments of a tool_use block
};

class AnthropicDecoder : public ResponseDecoder {
 public:
  AnthropicDecoder(bool stream, const StreamCallbacks& callbacks)
      : stream_(stream),
        callbacks_(callbacks),
        parser_([this](const SseEvent& e) { return OnEvent(e); }) {}

  bool OnStreamBytes(std::string_view bytes) override { return parser_.Feed(bytes); }

  absl::Status Finish(const HttpResponse& response) override {
    if (!stream_) return DecodeWhole(response.body);
    if (!decode_error_.ok()) return decode_error_;
    if (!message_stopped_) {
      return absl::UnavailableError(absl::StrCat(
          "anthropic stream ended early (no message_stop after ", parser_.events_dispatched(),
          " events)"));
    }
    Complete();
    return absl::OkStatus();
  }

  ChatResponse TakeResponse() override { return std::move(response_); }

 private:
  bool OnEvent(const SseEvent& e) {
    json data = json::parse(e.data, nullptr, /*allow_exceptions=*/false);
    if (!data.is_object()) {
      decode_error_ = absl::UnavailableError(absl::StrCat(
          "malformed event in the anthropic stream: ", e.event, " ", e.data.substr(0, 120)));
      return false;
    }
    // The data's own "type" is authoritative; the event name is its copy.
    std::string type = StringField(data, "type");
    if (type.empty()) type = e.event;

    if (type == "message_start") {
      if (auto m = data.find("message"); m != data.end() && m->is_object()) {
        response_.model = StringField(*m, "model");
        if (auto u = m->find("usage"); u != m->end() && u->is_object()) usage_.Merge(*u);
      }
    } else if (type == "content_block_start") {
      Block& b = blocks_[IntField(data, "index")];
      if (auto cb = data.find("content_block"); cb != data.end() && cb->is_object()) {
        b.type = StringField(*cb, "type");
        b.id = StringField(*cb, "id");
        b.name = StringField(*cb, "name");
        if (b.type == "text") AppendText(StringField(*cb, "text"));
      }
    } else if (type == "content_block_delta") {
      Block& b = blocks_[IntField(data, "index")];
      if (auto d = data.find("delta"); d != data.end() && d->is_object()) {
        const std::string delta_type = StringField(*d, "type");
        if (delta_type == "text_delta") AppendText(StringField(*d, "text"));
        if (delta_type == "input_json_delta") b.json += StringField(*d, "partial_json");
        // thinking_delta / signature_delta: not part of the answer.
      }
    } else if (type == "content_block_stop") {
      Block& b = blocks_[IntField(data, "index")];
      if (b.type == "tool_use") EmitToolCall(b.id, b.name, b.json.empty() ? "{}" : b.json);
    } else if (type == "message_delta") {
      if (auto d = data.find("delta"); d != data.end() && d->is_object()) {
        if (auto r = d->find("stop_reason"); r != d->end() && r->is_string()) {
          stop_reason_ = r->get<std::string>();
        }
      }
      if (auto u = data.find("usage"); u != data.end() && u->is_object()) usage_.Merge(*u);
    } else if (type == "message_stop") {
      message_stopped_ = true;
    } else if (type == "error") {
      stream_error_ = ParseProviderError(e.data);
      stream_error_status_ = HttpStatusForErrorType(stream_error_);
      return false;
    }
    // "ping" and event types added later are ignored.
    return true;
  }

  void AppendText(const std::string& text) {
    if (text.empty()) return;
    response_.text += text;
    delivered_output_ = true;
    if (callbacks_.on_text) callbacks_.on_text(text);
  }

  void EmitToolCall(const std::string& id, const std::string& name, const std::string& args) {
    ToolCall call{id, name, args};
    response_.tool_calls.push_back(call);
    delivered_output_ = true;
    if (callbacks_.on_tool_call) callbacks_.on_tool_call(call);
  }

  void Complete() {
    response_.finish_reason = ParseStopReason(stop_reason_);
    response_.usage = usage_.ToUsage();
    if (callbacks_.on_usage) callbacks_.on_usage(response_.usage);
  }

  absl::Status DecodeWhole(const std::string& body) {
    json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) {
      return absl::UnavailableError(
          absl::StrCat("malformed anthropic response: ", body.substr(0, 120)));
    }
    response_.model = StringField(j, "model");
    stop_reason_ = StringField(j, "stop_reason");
    if (auto u = j.find("usage"); u != j.end() && u->is_object()) usage_.Merge(*u);
    if (auto content = j.find("content"); content != j.end() && content->is_array()) {
      for (const json& block : *content) {
        const std::string type = StringField(block, "type");
        if (type == "text") AppendText(StringField(block, "text"));
        if (type == "tool_use") {
          auto input = block.find("input");
          EmitToolCall(StringField(block, "id"), StringField(block, "name"),
                       input == block.end() ? "{}" : input->dump());
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
  std::map<int64_t, Block> blocks_;
  AnthropicUsage usage_;
  std::string stop_reason_;
  bool message_stopped_ = false;
};

json TextBlock(const std::string& text) { return {{"type", "text"}, {"text", text}}; }

json ImageBlock(const ImageContent& image) {
  return {{"type", "image"},
          {"source", {{"type", "base64"}, {"media_type", image.mime_type}, {"data", ImageBase64(image)}}}};
}

// Text and images as content blocks; for a model without vision, a note per image instead.
json ContentBlocks(const std::string& text, const std::vector<ImageContent>& images, bool vision) {
  json blocks = json::array();
  std::string all = text;
  if (!vision) {
    for (const ImageContent& image : images) absl::StrAppend(&all, all.empty() ? "" : "\n", ImageOmittedNote(image));
  }
  if (!all.empty()) blocks.push_back(TextBlock(all));  // empty text blocks are rejected
  if (vision) {
    for (const ImageContent& image : images) blocks.push_back(ImageBlock(image));
  }
  return blocks;
}

// Appends content blocks to the conversation, merging with the previous message when it has
// the same role: the protocol wants user and assistant to alternate, and all tool results
// answering one assistant turn in a single user message.
void AppendBlocks(json& messages, const char* role, json blocks) {
  if (blocks.empty()) return;
  if (!messages.empty() && messages.back()["role"] == role) {
    json& content = messages.back()["content"];
    for (json& b : blocks) content.push_back(std::move(b));
    return;
  }
  messages.push_back({{"role", role}, {"content", std::move(blocks)}});
}

}  // namespace

json BuildAnthropicMessagesBody(const ChatRequest& request, const std::string& model, bool images) {
  json body = {{"model", model}, {"max_tokens", request.options.max_tokens}};
  json system = json::array();
  if (!request.system.cacheable_prefix.empty()) {
    json block = TextBlock(request.system.cacheable_prefix);
    block["cache_control"] = {{"type", "ephemeral"}};
    system.push_back(std::move(block));
  }
  if (!request.system.rest.empty()) system.push_back(TextBlock(request.system.rest));
  if (!system.empty()) body["system"] = std::move(system);

  json messages = json::array();
  for (const Message& m : request.messages) {
    switch (m.role) {
      case Role::kUser:
        AppendBlocks(messages, "user", ContentBlocks(m.text, m.images, images));
        break;
      case Role::kAssistant: {
        json blocks = json::array();
        if (!m.text.empty()) blocks.push_back(TextBlock(m.text));
        for (const ToolCall& c : m.tool_calls) {
          // The protocol wants the input as an object. Arguments the model sent malformed
          // (reported back to it by the caller) are replayed as an empty object.
          json input = json::parse(c.arguments, nullptr, /*allow_exceptions=*/false);
          if (!input.is_object()) input = json::object();
          blocks.push_back({{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", input}});
        }
        AppendBlocks(messages, "assistant", std::move(blocks));
        break;
      }
      case Role::kTool: {
        json result = {{"type", "tool_result"}, {"tool_use_id", m.tool_call_id}};
        // A tool's image (capture_view) goes inside its tool_result, beside the text.
        if (m.images.empty()) {
          result["content"] = m.text;
        } else {
          result["content"] = ContentBlocks(m.text, m.images, images);
        }
        if (m.tool_error) result["is_error"] = true;
        AppendBlocks(messages, "user", json::array({std::move(result)}));
        break;
      }
    }
  }
  body["messages"] = std::move(messages);
  if (request.options.temperature) body["temperature"] = *request.options.temperature;
  if (!request.options.stop.empty()) body["stop_sequences"] = request.options.stop;
  if (!request.tools.empty()) {
    json tools = json::array();
    for (const ToolSchema& t : request.tools) {
      json tool = {{"name", t.name}, {"description", t.description}};
      tool["input_schema"] = t.parameters.is_null()
                                 ? json{{"type", "object"}, {"properties", json::object()}}
                                 : t.parameters;
      tools.push_back(std::move(tool));
    }
    body["tools"] = std::move(tools);
    const char* choice = request.options.tool_choice == ToolChoice::kNone       ? "none"
                         : request.options.tool_choice == ToolChoice::kRequired ? "any"
                                                                                : "auto";
    body["tool_choice"] = {{"type", choice}};
  }
  if (request.options.stream) body["stream"] = true;
  return body;
}

std::unique_ptr<ResponseDecoder> MakeAnthropicDecoder(bool stream,
                                                      const StreamCallbacks& callbacks) {
  return std::make_unique<AnthropicDecoder>(stream, callbacks);
}

AnthropicMessagesProvider::AnthropicMessagesProvider(ProviderSettings settings)
    : settings_(std::move(settings)) {}

absl::StatusOr<ChatResponse> AnthropicMessagesProvider::Chat(const ChatRequest& request,
                                                             const StreamCallbacks& callbacks) {
  const std::string model = request.options.model.empty() ? settings_.model : request.options.model;
  HttpRequest http;
  std::string base = settings_.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  http.url = absl::EndsWith(base, "/v1") ? base + "/messages" : base + "/v1/messages";
  // Trace text may hold invalid UTF-8: replace it rather than throw.
  http.body = BuildAnthropicMessagesBody(request, model, settings_.images)
                  .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  http.headers.push_back({"anthropic-version", settings_.anthropic_version});
  AddStandardHeaders(settings_, AuthStyle::kXApiKey, request.options.stream, http);
  const TransportSettings transport = TransportFor("anthropic", settings_, &pool_);
  AttemptStats stats;
  auto result = PostWithRetries(
      transport, std::move(http), request.options, model, callbacks,
      [&] { return MakeAnthropicDecoder(request.options.stream, callbacks); }, &stats);
  last_attempts_ = stats.attempts;
  return result;
}

}  // namespace tw::llm
