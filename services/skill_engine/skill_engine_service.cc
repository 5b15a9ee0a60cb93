#include "services/skill_engine/skill_engine_service.h"

#include <atomic>

#include "absl/strings/str_cat.h"
#include "libs/rpc/channel_security.h"
#include "libs/skills/backend_runner.h"
#include "libs/skills/envelope_proto.h"
#include "libs/skills/skill_executor.h"
#include "libs/skills/skill_validator.h"

namespace tw::services {
namespace {

namespace pb = tracewise::v1;

grpc::Status ToGrpc(const absl::Status& s) {
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()), std::string(s.message()));
}

}  // namespace

SkillEngineService::SkillEngineService(SkillEngineOptions options, QueryBackend* backend)
    : options_(std::move(options)), backend_(backend) {
  std::vector<skills::Diagnostic> diags;
  library_ = skills::SkillLibrary::LoadDirectory(options_.skills_dir, &diags);
}

grpc::Status SkillEngineService::ListSkills(grpc::ServerContext* context, const pb::ListSkillsRequest* request,
                                            pb::ListSkillsResponse* response) {
  if (auto who = options_.auth->Check(context, auth::Permission::kRead); !who.ok()) return ToGrpc(who.status());
  for (const skills::Skill* s : library_.All()) {
    if (!request->category().empty() && s->category != request->category()) continue;
    *response->add_skills() = skills::ToSummary(*s);
  }
  return grpc::Status::OK;
}

grpc::Status SkillEngineService::DescribeSkill(grpc::ServerContext* context,
                                               const pb::DescribeSkillRequest* request,
                                               pb::SkillDescription* response) {
  if (auto who = options_.auth->Check(context, auth::Permission::kRead); !who.ok()) return ToGrpc(who.status());
  const skills::Skill* s = library_.Find(request->name());
  if (!s) return grpc::Status(grpc::StatusCode::NOT_FOUND, "unknown skill '" + request->name() + "'");
  *response = skills::ToDescription(*s);
  return grpc::Status::OK;
}

grpc::Status SkillEngineService::InvokeSkill(grpc::ServerContext* context,
                                             const pb::InvokeSkillRequest* request,
                                             grpc::ServerWriter<pb::SkillEvent>* writer) {
  auto who = options_.auth->Check(context, auth::Permission::kRead);
  if (!who.ok()) return ToGrpc(who.status());
  if (options_.check_trace && !who->anonymous()) {
    if (absl::Status visible = options_.check_trace(*who, request->trace_id()); !visible.ok()) {
      return ToGrpc(visible);
    }
  }
  // The skill's queries reach trace-query with the caller's own token (this thread runs them),
  // so trace-query checks the caller's tenancy itself.
  rpc::ScopedCallAuthorization as_caller(rpc::ServerAuth::CallerAuthorization(context));
  QueryBackend* backend = backend_;
  const skills::Skill* skill = library_.Find(request->skill());
  if (!skill) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "unknown skill '" + request->skill() + "'");
  }
  const std::map<std::string, std::string> params(request->params().begin(),
                                                  request->params().end());
  if (auto values = skills::SkillExecutor::ConvertParams(*skill, params); !values.ok()) {
    return ToGrpc(values.status());
  }
  // The trace must exist before anything streams: NOT_FOUND is the answer, not an error event.
  BackendQuery probe;
  probe.trace_id = request->trace_id();
  probe.sql = "SELECT 1";
  probe.timeout = options_.query_timeout;
  if (auto r = backend->Query(probe); !r.ok()) return ToGrpc(r.status());

  // The client's deadline bounds every query; its cancellation stops the run between events.
  absl::Duration timeout = options_.query_timeout;
  if (context->deadline() != std::chrono::system_clock::time_point::max()) {
    timeout = std::min(timeout, absl::FromChrono(context->deadline() - std::chrono::system_clock::now()));
  }
  std::atomic<bool> cancelled{false};
  skills::BackendQueryRunner runner(backend, request->trace_id(), timeout, &cancelled);
  skills::ExecutionOptions exec_options;
  exec_options.cancelled = &cancelled;
  skills::SkillExecutor executor(library_, runner, exec_options);
  bool client_gone = false;
  executor.Run(*skill, params, [&](const skills::SkillEvent& e) {
    if (client_gone) return;
    pb::SkillEvent event = skills::ToProto(e, request->trace_id());
    if (e.kind == skills::SkillEvent::Kind::kSkillCompleted && e.depth == 0) {
      event.set_output_step(skill->output);
    }
    if (context->IsCancelled() || !writer->Write(event)) {
      client_gone = true;
      cancelled = true;
    }
  });
  if (client_gone || context->IsCancelled()) {
    return grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled the skill");
  }
  return grpc::Status::OK;
}

grpc::Status SkillEngineService::ValidateSkills(grpc::ServerContext* context,
                                                const pb::ValidateSkillsRequest*,
                                                pb::ValidateSkillsResponse* response) {
  if (auto who = options_.auth->Check(context, auth::Permission::kRead); !who.ok()) return ToGrpc(who.status());
  const std::vector<skills::Diagnostic> diags = skills::ValidateSkillDirectory(options_.skills_dir);
  int errors = 0;
  for (const auto& d : diags) {
    response->add_diagnostics(d.ToString());
    if (!d.warning) ++errors;
  }
  response->set_skills(static_cast<int32_t>(skills::FindSkillFiles(options_.skills_dir).size()));
  response->set_errors(errors);
  return grpc::Status::OK;
}

}  // namespace tw::services
