#pragma once
// The skill-engine gRPC service (protos/tracewise/v1/skill_engine.proto): lists, describes,
// validates and runs the YAML skills of one directory against traces reached through a
// QueryBackend (a trace manager in this process, or a trace-query service).

#include <functional>
#include <memory>
#include <string>

#include "libs/rpc/server_auth.h"
#include "libs/skills/skill_library.h"
#include "libs/trace/store/query_backend.h"
#include "tracewise/v1/skill_engine.grpc.pb.h"

namespace tw::services {

struct SkillEngineOptions {
  std::string skills_dir;
  absl::Duration query_timeout = absl::Seconds(60);
  // Authentication (issue #16): off by default.
  std::shared_ptr<rpc::ServerAuth> auth = std::make_shared<rpc::ServerAuth>();
  // With an in-process store: NOT_FOUND unless the caller's tenant owns the trace.
  std::function<absl::Status(const auth::Identity& caller, const std::string& trace_id)> check_trace;
};

class SkillEngineService final : public tracewise::v1::SkillEngine::Service {
 public:
  // `backend` must outlive the service. Skills with load errors are left out (ValidateSkills
  // reports them).
  SkillEngineService(SkillEngineOptions options, QueryBackend* backend);

  grpc::Status ListSkills(grpc::ServerContext* context,
                          const tracewise::v1::ListSkillsRequest* request,
                          tracewise::v1::ListSkillsResponse* response) override;
  grpc::Status DescribeSkill(grpc::ServerContext* context,
                             const tracewise::v1::DescribeSkillRequest* request,
                             tracewise::v1::SkillDescription* response) override;
  grpc::Status InvokeSkill(grpc::ServerContext* context,
                           const tracewise::v1::InvokeSkillRequest* request,
                           grpc::ServerWriter<tracewise::v1::SkillEvent>* writer) override;
  grpc::Status ValidateSkills(grpc::ServerContext* context,
                              const tracewise::v1::ValidateSkillsRequest* request,
                              tracewise::v1::ValidateSkillsResponse* response) override;

  const skills::SkillLibrary& library() const { return library_; }

 private:
  SkillEngineOptions options_;
  QueryBackend* backend_;
  skills::SkillLibrary library_;
};

}  // namespace tw::services
