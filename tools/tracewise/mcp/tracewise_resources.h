#pragma once
// The resources of the MCP server: what a model may read before or while it investigates.
//   tracewise://skills              the skill library: every skill, its inputs and purpose
//   tracewise://skills/{name}       one skill's YAML (its SQL, rules and display)
//   tracewise://strategies          the scene strategies: how each kind of question is analysed
//   tracewise://strategies/{scene}  one strategy's Markdown
//   tracewise://knowledge/{topic}   background topics (binder, GC, scheduler, ...)
//   tracewise://schema              the SQL schema: tables and views with their columns, modules
//   tracewise://schema/{table}      one table or view

#include "absl/status/status.h"
#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"
#include "tools/tracewise/mcp/resource_registry.h"

namespace tw::mcp {

// The libraries must outlive the registry's use.
absl::Status AddTracewiseResources(ResourceRegistry& registry, const skills::SkillLibrary* library,
                                   const strategy::StrategyLibrary* strategies);

}  // namespace tw::mcp
