#pragma once
// JSON-RPC 2.0 messages as MCP uses them (one message per line on stdio): classifying an incoming
// line as a request, a notification or a response, and building the messages the server sends.
// Anything malformed comes back as kInvalid with the error to answer (parse error, invalid
// request), so the dispatcher never has to reason about raw input.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tw::mcp {

using Json = nlohmann::json;

// JSON-RPC's codes plus the ones MCP defines (basic/index "Error Codes").
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kLegacyResourceNotFound = -32002,  // 2025-11-25 and earlier; -32602 since 2026-07-28
  kMissingRequiredClientCapability = -32021,
  kUnsupportedProtocolVersion = -32022,
};

struct RpcError {
  int code = kInternalError;
  std::string message;
  Json data;  // null = no `data` member
};

struct Message {
  enum class Kind { kRequest, kNotification, kResponse, kInvalid };
  Kind kind = Kind::kInvalid;
  Json id;            // requests: a string or an integer; invalid ones: the id if readable, else null
  std::string method;
  Json params;        // an object, an array (rejected by the dispatcher) or null when absent
  RpcError error;     // kInvalid only: what to answer
};

// Messages nested deeper than this are refused (and never handed to the JSON parser's recursive
// consumers): no MCP message needs more than a handful of levels.
inline constexpr int kMaxNestingDepth = 64;

Message ParseMessage(std::string_view line);

Json ResultResponse(const Json& id, Json result);
// `id` null (unreadable): the response has no id member, as MCP's schema has it.
Json ErrorResponse(const Json& id, const RpcError& error);
Json NotificationMessage(std::string_view method, Json params);

// One line of the wire: compact JSON, no newline; invalid UTF-8 in strings (trace data can hold
// any bytes) is replaced by U+FFFD instead of failing the whole message.
std::string Serialize(const Json& message);

}  // namespace tw::mcp
