#pragma once
// Tracewise as an MCP server: the skill and strategy libraries, a trace workspace (embedded or
// services), and the tools and resources registered over them. `tracewise mcp` (cmd_mcp.cc)
// parses the command line into a TracewiseServerConfig and serves stdio.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/agent/session_store.h"
#include "libs/agent/turn_runner.h"
#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"
#include "tools/tracewise/mcp/mcp_server.h"
#include "tools/tracewise/mcp/trace_tools.h"
#include "tools/tracewise/mcp/trace_workspace.h"
#include "tools/tracewise/mcp/turn_host.h"

namespace tw::mcp {

struct TracewiseServerConfig {
  std::string skills_dir;      // empty: skills::DefaultSkillsDir()
  std::string strategies_dir;  // empty: strategy::DefaultStrategiesDir()
  // Embedded: traces are stored (and sessions kept) under this directory.
  std::string data_dir;
  int64_t memory_budget_bytes = int64_t{4} << 30;
  // Services: trace-query, skill-engine[, verifier] as HOST:PORT; empty = embedded.
  std::vector<std::string> services;
  // A deployment's orchestrator (HOST:PORT): analyze / ask / list_sessions run there (its
  // sessions, its model); the trace and skill tools use `services` (required with it).
  std::string orchestrator;
  QueryLimits limits;
  // analyze / ask: the LLM configuration file (empty: TRACEWISE_LLM_* and the default file);
  // nothing configured or `offline` = the offline analyst answers.
  std::string llm_config;
  bool offline = false;
};

class TracewiseServer {
 public:
  // INVALID_ARGUMENT / NOT_FOUND when a library or the data directory cannot be loaded.
  static absl::StatusOr<std::unique_ptr<TracewiseServer>> Create(const TracewiseServerConfig& config);

  const ToolRegistry& tools() const { return tools_; }
  const ResourceRegistry& resources() const { return resources_; }
  ServerIdentity identity() const;
  TraceWorkspace& workspace() { return *workspace_; }
  TurnHost& turns() { return *turns_; }

 private:
  TracewiseServer(skills::SkillLibrary library, strategy::StrategyLibrary strategies)
      : library_(std::move(library)), strategies_(std::move(strategies)) {}

  skills::SkillLibrary library_;
  strategy::StrategyLibrary strategies_;
  std::unique_ptr<TraceWorkspace> workspace_;
  std::unique_ptr<agent::SessionStore> sessions_;
  std::unique_ptr<agent::TurnRunner> runner_;
  std::unique_ptr<TurnHost> turns_;
  ToolRegistry tools_;
  ResourceRegistry resources_;
};

}  // namespace tw::mcp
