#pragma once
// What the MCP tools reach: the traces this server has been given and how to ask them things —
// SQL through the engine's QueryBackend seam and skills through a SkillRunner. Two wirings:
// embedded (a trace store and manager in this process, skills run here) and services (a
// trace-query and a skill-engine service). The tools never know which one they talk to.
//
// Trace ids are the SHA-256 of the trace file's content in both wirings, so loading the same
// file twice gives the same trace, and an id stays valid as long as the store keeps the file
// (an evicted trace reloads on demand).

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/agent/skill_runner.h"
#include "libs/skills/skill_executor.h"
#include "libs/trace/store/query_backend.h"
#include "libs/trace/store/trace_manager.h"

namespace tw::mcp {

// Skills over one trace: the runner and the SQL runner it (and the context probes) use.
struct TraceSkills {
  std::unique_ptr<skills::SkillQueryRunner> sql;
  std::unique_ptr<agent::SkillRunner> runner;
};

class TraceWorkspace {
 public:
  virtual ~TraceWorkspace() = default;

  // Brings a trace file of this machine in and loads it. NOT_FOUND (no such file),
  // INVALID_ARGUMENT (not a regular file, or not a trace the engine reads, with the loader's
  // reason), RESOURCE_EXHAUSTED (over the size or memory limits).
  virtual absl::StatusOr<ManagedTraceInfo> Load(const std::string& path) = 0;
  // NOT_FOUND for an id this workspace has never been given.
  virtual absl::StatusOr<ManagedTraceInfo> Info(const std::string& trace_id) = 0;
  virtual absl::StatusOr<std::vector<ManagedTraceInfo>> List() = 0;

  virtual QueryBackend& queries() = 0;
  // `cancelled` (may be null) stops the skill's SQL when set.
  virtual TraceSkills SkillsFor(const std::string& trace_id, const std::atomic<bool>* cancelled) = 0;
  // One line for logs: "embedded (traces in DIR)" / "services (trace-query at A, skill-engine at B)".
  virtual std::string Describe() const = 0;
};

// OK when `path` is an existing regular file; NOT_FOUND / INVALID_ARGUMENT naming the problem.
absl::Status CheckTraceFile(const std::string& path);
// The trace with that id among `traces`; NOT_FOUND saying how to get ids.
absl::StatusOr<ManagedTraceInfo> FindTrace(const std::vector<ManagedTraceInfo>& traces,
                                           const std::string& trace_id);

}  // namespace tw::mcp
