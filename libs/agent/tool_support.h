#pragma once
// What the tool handlers share (agent_tools, comparison_tools): JSON-schema and argument helpers
// that report wrong arguments instead of throwing, skill parameters from JSON, and running one
// read-only query into a stored SQL artifact with the model's summary of it.

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "libs/agent/agent_session.h"
#include "libs/agent/agent_tools.h"
#include "libs/skills/skill_executor.h"

namespace tw::agent {

ToolResult FailedTool(std::string message);

// {"type": "object", "properties": ..., "required": ..., "additionalProperties": false}
nlohmann::json ObjectSchema(nlohmann::json properties, std::vector<std::string> required);

// Reads a string argument; a missing one is an error only when `required`.
bool GetStringArg(const nlohmann::json& args, const char* key, std::string* out,
                  std::string* error, bool required = true);
// The strings of an array argument (other elements and a missing key give nothing).
std::vector<std::string> GetStringListArg(const nlohmann::json& args, const char* key);

// The skill inputs of a `params` object argument (numbers, strings, booleans as 0/1).
absl::StatusOr<std::map<std::string, SqlValue>> SkillInputsArg(const nlohmann::json& args);

// "skill NAME: ok" / "skill NAME: not_supported — why".
std::string SkillOutcomeText(const skills::SkillRunResult& run);

struct SqlArtifactRequest {
  std::string sql;
  std::string artifact_id;
  std::string skill = "execute_sql";  // provenance shown with the artifact
  std::string title;                  // e.g. which trace it ran on; may be empty
  bool summary_only = false;          // per-column statistics instead of rows
  int64_t max_rows = 5000;
};

// Runs the query, stores the rows as an artifact of `session` (column types guessed from
// trace_processor's naming: dur/*_ns → duration, ts → timestamp) and returns its summary.
// SQL errors and write attempts fail with the engine's message and a hint.
ToolResult RunSqlArtifact(skills::SkillQueryRunner& runner, const SqlArtifactRequest& request,
                          AgentSession& session);

}  // namespace tw::agent
