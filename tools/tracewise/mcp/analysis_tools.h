#pragma once
// The analysis tools of the MCP server: analyze (a diagnosis of a trace: the LLM agent when a
// model is configured, the offline analyst otherwise), ask (a follow-up in the same session) and
// list_sessions. Turns run through a TurnHost (turn_host.h): the one turn runner, in process,
// through the services or on an orchestrator. Each step of a turn is a progress notification;
// a cancelled call stops the turn.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tools/tracewise/mcp/tool_registry.h"
#include "tools/tracewise/mcp/turn_host.h"

namespace tw::mcp {

// `scenes` are the strategy library's scene names (the `scene` argument's allowed values);
// `host` must outlive the registry's use.
absl::Status AddAnalysisTools(ToolRegistry& registry, TurnHost* host,
                              const std::vector<std::string>& scenes);

}  // namespace tw::mcp
