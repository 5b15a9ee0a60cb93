#pragma once
// The skill tools of the MCP server: list_skills and describe_skill over the skill library this
// server loaded, run_skill over a trace of its workspace (in process, or on the skill-engine).

#include "absl/status/status.h"
#include "libs/skills/skill_library.h"
#include "tools/tracewise/mcp/tool_registry.h"
#include "tools/tracewise/mcp/trace_workspace.h"

namespace tw::mcp {

// `library` and `workspace` must outlive the registry's use.
absl::Status AddSkillTools(ToolRegistry& registry, const skills::SkillLibrary* library,
                           TraceWorkspace* workspace);

// A skill's description as JSON (describe_skill's structured result, the skill index resource).
Json SkillJson(const skills::Skill& skill);

}  // namespace tw::mcp
