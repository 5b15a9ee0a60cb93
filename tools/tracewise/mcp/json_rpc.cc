#include "tools/tracewise/mcp/json_rpc.h"

#include <algorithm>

namespace tw::mcp {
namespace {

// The deepest [ / { nesting of `text`, counting only brackets outside strings; stops counting
// once past `limit`. Runs before parsing so a hostile message cannot make anything recurse.
int NestingDepth(std::string_view text, int limit) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

Message Invalid(int code, std::string message, Json id = nullptr) {
  Message m;
  m.kind = Message::Kind::kInvalid;
  m.id = std::move(id);
  m.error = {code, std::move(message), nullptr};
  return m;
}

bool IsValidId(const Json& id) { return id.is_string() || id.is_number_integer(); }

}  // namespace

Message ParseMessage(std::string_view line) {
  if (NestingDepth(line, kMaxNestingDepth) > kMaxNestingDepth) {
    return Invalid(kInvalidRequest, "message nested deeper than " +
                                        std::to_string(kMaxNestingDepth) + " levels");
  }
  Json j = Json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Invalid(kParseError, "Parse error: the line is not valid JSON");
  if (j.is_array()) {
    return Invalid(kInvalidRequest, "batches are not supported: send one JSON-RPC message per line");
  }
  if (!j.is_object()) return Invalid(kInvalidRequest, "a JSON-RPC message must be a JSON object");

  // The id, when it is one we could answer to.
  Json id = nullptr;
  auto id_it = j.find("id");
  const bool has_id = id_it != j.end();
  if (has_id && IsValidId(*id_it)) id = *id_it;

  auto version = j.find("jsonrpc");
  if (version == j.end() || !version->is_string() || *version != "2.0") {
    return Invalid(kInvalidRequest, "\"jsonrpc\" must be \"2.0\"", id);
  }
  auto method = j.find("method");
  if (method == j.end()) {
    if (j.contains("result") || j.contains("error")) {
      Message m;
      m.kind = Message::Kind::kResponse;
      m.id = id;
      return m;
    }
    return Invalid(kInvalidRequest, "a request needs a \"method\"", id);
  }
  if (!method->is_string()) return Invalid(kInvalidRequest, "\"method\" must be a string", id);
  if (has_id && id_it->is_null()) return Invalid(kInvalidRequest, "\"id\" must not be null");
  if (has_id && !IsValidId(*id_it)) {
    return Invalid(kInvalidRequest, "\"id\" must be a string or an integer");
  }
  Message m;
  m.kind = has_id ? Message::Kind::kRequest : Message::Kind::kNotification;
  m.id = id;
  m.method = method->get<std::string>();
  auto params = j.find("params");
  if (params != j.end()) {
    if (!params->is_object() && !params->is_array()) {
      return Invalid(kInvalidRequest, "\"params\" must be an object", id);
    }
    m.params = std::move(*params);
  }
  return m;
}

Json ResultResponse(const Json& id, Json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json ErrorResponse(const Json& id, const RpcError& error) {
  Json e = {{"code", error.code}, {"message", error.message}};
  if (!error.data.is_null()) e["data"] = error.data;
  Json response = {{"jsonrpc", "2.0"}, {"error", std::move(e)}};
  // MCP's schema makes the id optional rather than null when it could not be read (a parse
  // error, an unreadable request); a null id would break clients that validate the schema.
  if (!id.is_null()) response["id"] = id;
  return response;
}

Json NotificationMessage(std::string_view method, Json params) {
  Json n = {{"jsonrpc", "2.0"}, {"method", std::string(method)}};
  if (!params.is_null()) n["params"] = std::move(params);
  return n;
}

std::string Serialize(const Json& message) {
  return message.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace tw::mcp
