#pragma once
// A skill run as JSON, the one shape every machine-facing surface prints (`tracewise skill run
// --format json`, the MCP server's run_skill): skill, outcome, message, elapsed_ns, steps (typed
// columns, rows, provenance) and findings (severity, evidence). Integers stay exact JSON
// integers (nanosecond timestamps); NaN and infinities become null.

#include <nlohmann/json.hpp>

#include "libs/skills/skill_executor.h"

namespace tw::skills {

nlohmann::json SqlValueJson(const SqlValue& value);
nlohmann::json StepResultJson(const StepResult& result);
nlohmann::json FindingJson(const Finding& finding);
nlohmann::json SkillRunResultJson(const SkillRunResult& result);

}  // namespace tw::skills
