#include "tools/tracewise/mcp/services_workspace.h"

#include "absl/strings/str_cat.h"
#include "libs/rpc/grpc_skill_runner.h"
#include "libs/skills/backend_runner.h"

namespace tw::mcp {

ServicesWorkspace::ServicesWorkspace(std::string trace_query, std::string skill_engine)
    : trace_query_(std::move(trace_query)),
      skill_engine_(std::move(skill_engine)),
      backend_(trace_query_) {}

absl::StatusOr<ManagedTraceInfo> ServicesWorkspace::Load(const std::string& path) {
  if (auto status = CheckTraceFile(path); !status.ok()) return status;
  auto id = backend_.UploadFile(path);
  if (!id.ok()) return id.status();
  return backend_.LoadTrace(*id);
}

absl::StatusOr<ManagedTraceInfo> ServicesWorkspace::Info(const std::string& trace_id) {
  auto traces = backend_.ListTraces();
  if (!traces.ok()) return traces.status();
  return FindTrace(*traces, trace_id);
}

absl::StatusOr<std::vector<ManagedTraceInfo>> ServicesWorkspace::List() { return backend_.ListTraces(); }

TraceSkills ServicesWorkspace::SkillsFor(const std::string& trace_id,
                                         const std::atomic<bool>* cancelled) {
  TraceSkills out;
  out.sql = std::make_unique<skills::BackendQueryRunner>(&backend_, trace_id, absl::Seconds(120),
                                                         cancelled);
  out.runner = std::make_unique<rpc::GrpcSkillRunner>(skill_engine_, trace_id);
  return out;
}

std::string ServicesWorkspace::Describe() const {
  return absl::StrCat("services (trace-query at ", trace_query_, ", skill-engine at ", skill_engine_, ")");
}

}  // namespace tw::mcp
