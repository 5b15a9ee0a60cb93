#pragma once
// The embedded wiring of TraceWorkspace: traces copied into a content-addressed store in a data
// directory and loaded by a TraceManager under a memory budget (the same classes trace-query
// uses), SQL through a LocalQueryBackend, skills run in this process.

#include <cstdint>
#include <memory>
#include <string>

#include "libs/skills/skill_library.h"
#include "libs/trace/store/trace_store.h"
#include "tools/tracewise/mcp/trace_workspace.h"

namespace tw::mcp {

struct EmbeddedWorkspaceOptions {
  std::string data_dir;                               // the trace store lives in DIR/traces
  int64_t max_trace_bytes = int64_t{8} << 30;         // larger files are refused
  int64_t memory_budget_bytes = int64_t{4} << 30;     // loaded traces beyond it are evicted (LRU)
};

class EmbeddedWorkspace : public TraceWorkspace {
 public:
  // `library` must outlive the workspace.
  static absl::StatusOr<std::unique_ptr<EmbeddedWorkspace>> Create(
      const EmbeddedWorkspaceOptions& options, const skills::SkillLibrary* library);

  absl::StatusOr<ManagedTraceInfo> Load(const std::string& path) override;
  absl::StatusOr<ManagedTraceInfo> Info(const std::string& trace_id) override;
  absl::StatusOr<std::vector<ManagedTraceInfo>> List() override;
  QueryBackend& queries() override { return backend_; }
  TraceSkills SkillsFor(const std::string& trace_id, const std::atomic<bool>* cancelled) override;
  std::string Describe() const override;

 private:
  EmbeddedWorkspace(std::string dir, std::unique_ptr<TraceStore> store, int64_t memory_budget,
                    const skills::SkillLibrary* library);

  std::string dir_;
  std::unique_ptr<TraceStore> store_;
  TraceManager manager_;
  LocalQueryBackend backend_;
  const skills::SkillLibrary* library_;
};

}  // namespace tw::mcp
