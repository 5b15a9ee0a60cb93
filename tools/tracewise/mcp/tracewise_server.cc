#include "tools/tracewise/mcp/tracewise_server.h"

#include "absl/strings/str_cat.h"
#include "tools/tracewise/mcp/embedded_workspace.h"
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
  if (auto s = AddTraceTools(server->tools_, server->workspace_.get(), config.limits); !s.ok()) return s;
  if (auto s = AddSkillTools(server->tools_, &server->library_, server->workspace_.get()); !s.ok()) return s;
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
      "analyses with diagnostic findings. Timestamps and durations are int64 nanoseconds.";
  return id;
}

}  // namespace tw::mcp
