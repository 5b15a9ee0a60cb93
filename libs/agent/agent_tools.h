#pragma once
// The tools the model may call (DESIGN.md §5), their JSON-schema declarations and their
// handlers. Full mode offers all of them and refuses data tools until a plan is accepted; quick
// mode offers execute_sql, invoke_skill and lookup_sql_schema only; a turn with a reference trace
// adds the comparison tools (comparison_tools.h) in either mode. Handlers never throw: bad
// arguments, unknown names and engine errors come back as a failed ToolResult whose text tells
// the model what to do instead.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libs/agent/agent_session.h"
#include "libs/agent/schema_provider.h"
#include "libs/agent/skill_runner.h"
#include "libs/agent/time_window.h"
#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"

namespace tw::agent {

struct ToolSpec {
  std::string name;
  std::string description;
  nlohmann::json parameters;  // JSON schema of the arguments object
};

struct ToolResult {
  bool ok = false;
  std::string content;  // what the model reads
  std::vector<std::string> artifacts;
};

struct ToolLimits {
  int64_t sql_max_rows = 5000;  // rows kept in an execute_sql artifact
  int fetch_max_rows = 50;      // rows per fetch_artifact page
};

// The second trace of a comparison turn (execute_sql_on, compare_skill, get_comparison_context).
// The pointers must outlive the ToolBox.
struct ReferenceTrace {
  std::string trace_id;
  SkillRunner* skills = nullptr;
  skills::SkillQueryRunner* sql = nullptr;

  bool present() const { return !trace_id.empty() && skills != nullptr && sql != nullptr; }
};

// Everything the tools work on. References must outlive the ToolBox.
struct ToolContext {
  SkillRunner* skills = nullptr;
  const skills::SkillLibrary* skill_library = nullptr;  // list_skills; may be null
  skills::SkillQueryRunner* sql = nullptr;
  SchemaProvider* schema = nullptr;
  const strategy::StrategyLibrary* strategies = nullptr;
  AgentSession* session = nullptr;
  ToolLimits limits;
  ReferenceTrace reference;  // empty unless the turn compares with a reference trace
  // Client-side tools the caller can run (client_tools.h): offered with the others; the agent
  // loop, not the ToolBox, handles their calls.
  std::vector<std::string> client_tools;
  // The selection's window: invoke_skill passes it as start_ts/end_ts to skills that take them,
  // unless the model gives its own.
  std::optional<TimeWindow> scope;
};

class ToolBox {
 public:
  explicit ToolBox(ToolContext context) : ctx_(context) {}

  // The tools offered in the session's mode (plus the comparison tools with a reference trace,
  // and the client tools the caller listed).
  std::vector<ToolSpec> Specs() const;
  // Runs `name` with JSON `arguments` (as text, exactly as the model sent it) and logs the call.
  ToolResult Call(const std::string& name, const std::string& arguments);

  static bool IsDataTool(const std::string& name);

 private:
  std::vector<ToolSpec> BaseSpecs() const;
  std::vector<ToolSpec> DataSpecs() const;  // Specs() without the client tools
  ToolResult Dispatch(const std::string& name, const nlohmann::json& args, ToolCallRecord& record);
  ToolResult ExecuteSql(const nlohmann::json& args, ToolCallRecord& record);
  ToolResult InvokeSkill(const nlohmann::json& args, ToolCallRecord& record);
  ToolResult ListSkills(const nlohmann::json& args);
  ToolResult LookupSchema(const nlohmann::json& args);
  ToolResult LookupKnowledge(const nlohmann::json& args);
  ToolResult FetchArtifact(const nlohmann::json& args);
  ToolResult SubmitPlan(const nlohmann::json& args, bool revision);
  ToolResult UpdatePlanPhase(const nlohmann::json& args);
  ToolResult SubmitHypothesis(const nlohmann::json& args);
  ToolResult ResolveHypothesis(const nlohmann::json& args);
  ToolResult FlagUncertainty(const nlohmann::json& args);
  ToolResult WriteNote(const nlohmann::json& args);

  ToolContext ctx_;
};

}  // namespace tw::agent
