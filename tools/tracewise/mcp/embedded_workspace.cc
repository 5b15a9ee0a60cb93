#include "tools/tracewise/mcp/embedded_workspace.h"

#include "absl/strings/str_cat.h"
#include "libs/skills/backend_runner.h"

namespace tw::mcp {

absl::StatusOr<std::unique_ptr<EmbeddedWorkspace>> EmbeddedWorkspace::Create(
    const EmbeddedWorkspaceOptions& options, const skills::SkillLibrary* library) {
  const std::string dir = options.data_dir + "/traces";
  auto store = TraceStore::Open(dir, options.max_trace_bytes);
  if (!store.ok()) return store.status();
  return std::unique_ptr<EmbeddedWorkspace>(
      new EmbeddedWorkspace(dir, std::move(*store), options.memory_budget_bytes, library));
}

EmbeddedWorkspace::EmbeddedWorkspace(std::string dir, std::unique_ptr<TraceStore> store,
                                     int64_t memory_budget, const skills::SkillLibrary* library)
    : dir_(std::move(dir)),
      store_(std::move(store)),
      manager_(store_.get(), TraceManagerOptions{memory_budget}),
      backend_(&manager_),
      library_(library) {}

absl::StatusOr<ManagedTraceInfo> EmbeddedWorkspace::Load(const std::string& path) {
  if (auto status = CheckTraceFile(path); !status.ok()) return status;
  auto stored = store_->AddFile(path);
  if (!stored.ok()) return stored.status();
  return manager_.Load(stored->id);
}

absl::StatusOr<ManagedTraceInfo> EmbeddedWorkspace::Info(const std::string& trace_id) {
  return FindTrace(manager_.List(), trace_id);
}

absl::StatusOr<std::vector<ManagedTraceInfo>> EmbeddedWorkspace::List() { return manager_.List(); }

TraceSkills EmbeddedWorkspace::SkillsFor(const std::string& trace_id,
                                         const std::atomic<bool>* cancelled) {
  TraceSkills out;
  out.sql = std::make_unique<skills::BackendQueryRunner>(&backend_, trace_id, absl::Seconds(120),
                                                         cancelled);
  out.runner = std::make_unique<agent::LocalSkillRunner>(*library_, *out.sql);
  return out;
}

std::string EmbeddedWorkspace::Describe() const {
  return absl::StrCat("embedded (traces stored in ", dir_, ")");
}

}  // namespace tw::mcp
