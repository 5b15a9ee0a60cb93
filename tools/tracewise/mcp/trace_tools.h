#pragma once
// The trace tools of the MCP server: load_trace, trace_info, list_traces and query. They reach
// the traces through a TraceWorkspace, so they behave the same embedded and against services.

#include <cstdint>

#include "absl/status/status.h"
#include "tools/tracewise/mcp/tool_registry.h"
#include "tools/tracewise/mcp/trace_workspace.h"

namespace tw::mcp {

// The limits of `query` (the same kind trace-query enforces): rows and bytes returned, time.
struct QueryLimits {
  int64_t default_rows = 500;
  int64_t max_rows = 10'000;
  int64_t max_result_bytes = int64_t{8} << 20;  // cells beyond this are cut (truncated)
  int64_t default_timeout_ms = 30'000;
  int64_t max_timeout_ms = 300'000;
};

// `workspace` must outlive the registry's use.
absl::Status AddTraceTools(ToolRegistry& registry, TraceWorkspace* workspace,
                           const QueryLimits& limits = {});

}  // namespace tw::mcp
