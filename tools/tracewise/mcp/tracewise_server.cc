#include "tools/tracewise/mcp/tracewise_server.h"

#include "absl/strings/str_cat.h"
#include "libs/backends/llm_wiring.h"
#include "libs/llm/llm_config.h"
#include "tools/tracewise/mcp/analysis_tools.h"
#include "tools/tracewise/mcp/embedded_workspace.h"
#include "tools/tracewise/mcp/local_turn_host.h"
#include "tools/tracewise/mcp/remote_turn_host.h"
#include "tools/tracewise/mcp/services_workspace.h"
#include "tools/tracewise/mcp/skill_tools.h"
#include "tools/tracewise/mcp/tracewise_resources.h"

namespace tw::mcp {

absl::StatusOr<std::unique_ptr<TracewiseServer>> TracewiseServer::Create(
    const TracewiseServerConfig& config) {
  const std::string skills_dir = config.skills_dir.empty() ? skills::DefaultSkillsDir() : config.skills_dir;
  std::vector<skills::Diagnostic> diagnostics;
  skills::SkillLibrary library = skills::SkillLibrary::LoadDirectory(skills_dir, &diagnostics);
  if (library.size() == 0) {
    return absl::NotFoundError(absl::StrCat("no skills in ", skills_dir.empty() ? "(none found)" : skills_dir,
                                            ": give --skills DIR or set TRACEWISE_SKILLS_DIR"));
  }
  auto strategies = strategy::StrategyLibrary::Load(
      config.strategies_dir.empty() ? strategy::DefaultStrategiesDir() : config.strategies_dir);
  if (!strategies.ok()) return strategies.status();

  std::unique_ptr<TracewiseServer> server(new TracewiseServer(std::move(library), std::move(*strategies)));
  if (config.services.empty()) {
    EmbeddedWorkspaceOptions options;
    options.data_dir = config.data_dir;
    options.memory_budget_bytes = config.memory_budget_bytes;
    auto workspace = EmbeddedWorkspace::Create(options, &server->library_);
    if (!workspace.ok()) return workspace.status();
    server->workspace_ = std::move(*workspace);
  } else if (config.services.size() >= 2) {
    server->workspace_ = std::make_unique<ServicesWorkspace>(config.services[0], config.services[1]);
  } else {
    return absl::InvalidArgumentError("services: give TRACE_QUERY,SKILL_ENGINE[,VERIFIER]");
  }
  if (!config.orchestrator.empty()) {
    if (config.services.empty()) {
      return absl::InvalidArgumentError(
          "--orchestrator runs analyze / ask on the deployment; the trace and skill tools also need "
          "--services TRACE_QUERY,SKILL_ENGINE (the orchestrator does not proxy SQL)");
    }
    server->turns_ = std::make_unique<RemoteTurnHost>(config.orchestrator);
  } else {
    llm::LlmConfig llm;
    if (!config.offline) {
      auto loaded = llm::LoadLlmConfig(config.llm_config);
      if (!loaded.ok()) return absl::InvalidArgumentError(absl::StrCat("LLM configuration: ", loaded.status().message()));
      llm = *loaded;
    }
    // Sessions live beside the traces (embedded) or only as long as the process (services).
    auto sessions = agent::SqliteSessionStore::Open(
        config.data_dir.empty() ? ":memory:" : config.data_dir + "/sessions.db");
    if (!sessions.ok()) return sessions.status();
    server->sessions_ = std::move(*sessions);
    agent::TurnRunnerOptions runner;
    runner.loop = backends::LoopOptionsFor(llm);
    server->runner_ = std::make_unique<agent::TurnRunner>(server->strategies_, &server->library_, std::move(runner));
    LocalTurnHostOptions turns;
    turns.make_llm = backends::ProviderMaker(llm);
    if (config.services.size() > 2) turns.verifier = config.services[2];
    turns.describe = llm.configured() ? absl::StrCat("analyze with the LLM agent (", llm.model, ")")
                                      : "analyze with the offline analyst (no LLM configured)";
    server->turns_ = std::make_unique<LocalTurnHost>(server->workspace_.get(), server->runner_.get(),
                                                     server->sessions_.get(), std::move(turns));
  }
  std::vector<std::string> scenes;
  for (const auto& strategy : server->strategies_.strategies()) scenes.push_back(strategy.scene);

  if (auto s = AddTraceTools(server->tools_, server->workspace_.get(), config.limits); !s.ok()) return s;
  if (auto s = AddSkillTools(server->tools_, &server->library_, server->workspace_.get()); !s.ok()) return s;
  if (auto s = AddAnalysisTools(server->tools_, server->turns_.get(), scenes); !s.ok()) return s;
  if (auto s = AddTracewiseResources(server->resources_, &server->library_, &server->strategies_); !s.ok()) {
    return s;
  }
  return server;
}

ServerIdentity TracewiseServer::identity() const {
  ServerIdentity id;
  id.name = "tracewise";
  id.title = "Tracewise — performance trace analysis";
  id.version = "0.1.0";
  id.instructions =
      "Tracewise analyses Android and Linux performance traces (Perfetto, systrace, Chrome JSON). "
      "Start with load_trace {path}: it returns a trace_id and an overview of what the trace "
      "holds. Then: query runs read-only SQL over Perfetto's trace_processor tables "
      "(tracewise://schema lists them); list_skills / describe_skill / run_skill run tested "
      "analyses with diagnostic findings; analyze {trace_id, question} answers a performance question "
      "(\"why does scrolling stutter?\") with a verified diagnosis and a session_id, and ask continues "
      "that session with follow-ups. Timestamps and durations are int64 nanoseconds.";
  return id;
}

}  // namespace tw::mcp
