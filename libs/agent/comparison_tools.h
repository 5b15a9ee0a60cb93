#pragma once
// The comparison tools (DESIGN.md §5 "comparison mode"), offered when a turn has a reference
// trace (ToolContext::reference):
// - execute_sql_on {trace: current|reference|<trace id>, sql, summary?}: execute_sql on either
//   trace; results are artifacts like execute_sql's (sql-N on the current trace, ref-sql-N on
//   the reference).
// - compare_skill {skill, params?, reference_params?}: one skill on both traces; both results
//   (the reference's as ref-... artifacts) and a difference table of the summary steps' numeric
//   columns (cmp-N: current, reference, delta, delta_pct per row and column).
// - get_comparison_context {}: both traces' context probes side by side (duration, data
//   completeness, focus app, rendering architecture, refresh rate, CPUs), what only one trace
//   has, and cautions (another app, another refresh rate); stored as cmp-N.
// execute_sql_on and compare_skill are data tools (behind the plan gate in full mode);
// get_comparison_context, like lookup_sql_schema, helps to plan and is not.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libs/agent/agent_tools.h"

namespace tw::agent {

bool IsComparisonTool(const std::string& name);
// The comparison tools that read trace data (plan gate, reflection nudge).
bool IsComparisonDataTool(const std::string& name);
std::vector<ToolSpec> ComparisonToolSpecs();

class ComparisonTools {
 public:
  // `ctx.reference` must be present(); ToolBox checks that before dispatching here.
  explicit ComparisonTools(const ToolContext& ctx) : ctx_(ctx) {}

  ToolResult Call(const std::string& name, const nlohmann::json& args, ToolCallRecord& record);

 private:
  ToolResult ExecuteSqlOn(const nlohmann::json& args);
  ToolResult CompareSkill(const nlohmann::json& args, ToolCallRecord& record);
  ToolResult GetComparisonContext();
  std::string NextComparisonId();

  const ToolContext& ctx_;
};

}  // namespace tw::agent
