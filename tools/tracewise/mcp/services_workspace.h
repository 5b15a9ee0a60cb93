#pragma once
// The services wiring of TraceWorkspace: trace files are uploaded to a trace-query service,
// which holds and queries them; skills run on a skill-engine service.

#include <string>

#include "libs/rpc/grpc_query_backend.h"
#include "tools/tracewise/mcp/trace_workspace.h"

namespace tw::mcp {

class ServicesWorkspace : public TraceWorkspace {
 public:
  // HOST:PORT of each service.
  ServicesWorkspace(std::string trace_query, std::string skill_engine);

  absl::StatusOr<ManagedTraceInfo> Load(const std::string& path) override;
  absl::StatusOr<ManagedTraceInfo> Info(const std::string& trace_id) override;
  absl::StatusOr<std::vector<ManagedTraceInfo>> List() override;
  QueryBackend& queries() override { return backend_; }
  TraceSkills SkillsFor(const std::string& trace_id, const std::atomic<bool>* cancelled) override;
  std::string Describe() const override;

 private:
  std::string trace_query_;
  std::string skill_engine_;
  rpc::GrpcQueryBackend backend_;
};

}  // namespace tw::mcp
