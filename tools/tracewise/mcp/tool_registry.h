#pragma once
// The tools a server offers: name, description, JSON Schemas for input and structured output,
// behaviour hints, and the handler. The registry is where the contract is enforced, so no
// handler has to: arguments are validated against the input schema before the handler runs
// (a failure is a tool result with isError and the precise problems, which a model can act on),
// handler exceptions become error results, and a structured result that breaks the tool's own
// outputSchema is reported as an internal error instead of reaching the client.

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tools/tracewise/mcp/json_rpc.h"

namespace tw::mcp {

// What a running tool sees of its request.
struct ToolCall {
  const Json& arguments;
  // Progress for the client (a notification when it asked for progress, else nothing). Values
  // must increase; `total` <= 0 means unknown.
  std::function<void(double progress, double total, const std::string& message)> progress;
  // Set when the client cancels the request; long work checks it (or hands it to the engine).
  const std::atomic<bool>* cancelled = nullptr;

  bool is_cancelled() const { return cancelled != nullptr && cancelled->load(); }
  void Progress(double value, double total, const std::string& message) const {
    if (progress) progress(value, total, message);
  }
};

struct ToolResult {
  Json content = Json::array();  // content blocks
  Json structured;               // structuredContent; null = none
  bool is_error = false;

  // An execution error the model should see: one text block, isError.
  static ToolResult Error(std::string message);
  // A result with structured content and its text rendering.
  static ToolResult Structured(Json structured, std::string text);
  Json ToJson() const;
};

// readOnlyHint, destructiveHint, idempotentHint, openWorldHint (tools "annotations").
struct ToolHints {
  bool read_only = true;
  bool destructive = false;
  bool idempotent = true;
  bool open_world = false;
};

struct ToolDefinition {
  std::string name;
  std::string title;
  std::string description;
  Json input_schema;   // an object schema
  Json output_schema;  // an object schema, or null when the tool has no structured result
  ToolHints hints;
  std::function<ToolResult(const ToolCall&)> handler;
};

class ToolRegistry {
 public:
  // INVALID_ARGUMENT for a bad name, a duplicate, or a schema using keywords the validator does
  // not enforce (json_schema.h).
  absl::Status Add(ToolDefinition tool);
  const ToolDefinition* Find(const std::string& name) const;
  size_t size() const { return tools_.size(); }
  // The `tools` entries of tools/list for [offset, offset + count), in registration order.
  Json ListJson(size_t offset, size_t count) const;

  // Validates `arguments` (null = none given = {}), runs the handler, checks the result.
  static ToolResult Call(const ToolDefinition& tool, const Json& arguments,
                         const std::function<void(double, double, const std::string&)>& progress,
                         const std::atomic<bool>* cancelled);

 private:
  std::vector<ToolDefinition> tools_;
  std::map<std::string, size_t> by_name_;
};

}  // namespace tw::mcp
