#include "tools/tracewise/mcp/tool_registry.h"

#include <exception>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tools/tracewise/mcp/json_schema.h"

namespace tw::mcp {
namespace {

// Tool names: 1-128 of A-Z a-z 0-9 _ - . (server/tools "Tool Names").
bool ValidToolName(const std::string& name) {
  if (name.empty() || name.size() > 128) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

bool IsObjectSchema(const Json& schema) {
  return schema.is_object() && schema.value("type", Json()) == "object";
}

}  // namespace

ToolResult ToolResult::Error(std::string message) {
  ToolResult r;
  r.content.push_back({{"type", "text"}, {"text", std::move(message)}});
  r.is_error = true;
  return r;
}

ToolResult ToolResult::Structured(Json structured, std::string text) {
  ToolResult r;
  r.content.push_back({{"type", "text"}, {"text", std::move(text)}});
  r.structured = std::move(structured);
  return r;
}

Json ToolResult::ToJson() const {
  Json j = {{"content", content}, {"isError", is_error}};
  if (!structured.is_null()) j["structuredContent"] = structured;
  return j;
}

absl::Status ToolRegistry::Add(ToolDefinition tool) {
  if (!ValidToolName(tool.name)) {
    return absl::InvalidArgumentError(absl::StrCat("bad tool name \"", tool.name, "\""));
  }
  if (by_name_.count(tool.name)) {
    return absl::InvalidArgumentError(absl::StrCat("tool \"", tool.name, "\" registered twice"));
  }
  if (!IsObjectSchema(tool.input_schema)) {
    return absl::InvalidArgumentError(absl::StrCat(tool.name, ": inputSchema must be an object schema"));
  }
  if (auto s = CheckSchemaSupported(tool.input_schema); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(tool.name, " inputSchema: ", s.message()));
  }
  if (!tool.output_schema.is_null()) {
    // Legacy clients (2025-11-25 and earlier) accept only object output schemas.
    if (!IsObjectSchema(tool.output_schema)) {
      return absl::InvalidArgumentError(absl::StrCat(tool.name, ": outputSchema must be an object schema"));
    }
    if (auto s = CheckSchemaSupported(tool.output_schema); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(tool.name, " outputSchema: ", s.message()));
    }
  }
  if (!tool.handler) return absl::InvalidArgumentError(absl::StrCat(tool.name, ": no handler"));
  by_name_[tool.name] = tools_.size();
  tools_.push_back(std::move(tool));
  return absl::OkStatus();
}

const ToolDefinition* ToolRegistry::Find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &tools_[it->second];
}

Json ToolRegistry::ListJson(size_t offset, size_t count) const {
  Json list = Json::array();
  for (size_t i = offset; i < tools_.size() && i < offset + count; ++i) {
    const ToolDefinition& t = tools_[i];
    Json j = {{"name", t.name},
              {"title", t.title},
              {"description", t.description},
              {"inputSchema", t.input_schema},
              {"annotations",
               {{"title", t.title},
                {"readOnlyHint", t.hints.read_only},
                {"destructiveHint", t.hints.destructive},
                {"idempotentHint", t.hints.idempotent},
                {"openWorldHint", t.hints.open_world}}}};
    if (!t.output_schema.is_null()) j["outputSchema"] = t.output_schema;
    list.push_back(std::move(j));
  }
  return list;
}

ToolResult ToolRegistry::Call(const ToolDefinition& tool, const Json& arguments,
                              const std::function<void(double, double, const std::string&)>& progress,
                              const std::atomic<bool>* cancelled) {
  const Json args = arguments.is_null() ? Json::object() : arguments;
  if (auto problems = ValidateJson(tool.input_schema, args); !problems.empty()) {
    return ToolResult::Error(
        absl::StrCat("invalid arguments for ", tool.name, ": ", absl::StrJoin(problems, "; ")));
  }
  ToolResult result;
  try {
    result = tool.handler(ToolCall{args, progress, cancelled});
  } catch (const std::exception& e) {
    return ToolResult::Error(absl::StrCat("internal error in ", tool.name, ": ", e.what()));
  }
  if (!result.is_error && !tool.output_schema.is_null()) {
    if (result.structured.is_null()) {
      return ToolResult::Error(absl::StrCat("internal error: ", tool.name, " returned no structured content"));
    }
    if (auto problems = ValidateJson(tool.output_schema, result.structured); !problems.empty()) {
      return ToolResult::Error(absl::StrCat("internal error: the result of ", tool.name,
                                            " does not match its outputSchema: ",
                                            absl::StrJoin(problems, "; ")));
    }
  }
  return result;
}

}  // namespace tw::mcp
