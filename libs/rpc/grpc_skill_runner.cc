#include "libs/rpc/grpc_skill_runner.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <map>

#include "absl/strings/str_cat.h"
#include "libs/rpc/channel_security.h"
#include "libs/rpc/status_convert.h"
#include "libs/skills/envelope_proto.h"
#include "tracewise/v1/skill_engine.grpc.pb.h"

namespace tw::rpc {
namespace {

namespace pb = tracewise::v1;

// Inputs travel as text and are converted by the skill's declared input types on the server.
std::string AsText(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kInt: return absl::StrCat(v.int_value);
    case SqlValue::Type::kDouble: return absl::StrCat(v.double_value);
    case SqlValue::Type::kString: return v.string_value;
    case SqlValue::Type::kNull: break;
  }
  return "";
}

skills::Severity FromProto(pb::Severity s) {
  switch (s) {
    case pb::SEVERITY_CRITICAL: return skills::Severity::kCritical;
    case pb::SEVERITY_HIGH:
    case pb::SEVERITY_MEDIUM: return skills::Severity::kWarning;
    case pb::SEVERITY_LOW: return skills::Severity::kNotice;
    default: return skills::Severity::kInfo;
  }
}

skills::Finding FromProto(const pb::Finding& f, const std::string& step) {
  skills::Finding out;
  // "skill X / rule Y" names its origin.
  const std::string& source = f.source();
  const size_t rule = source.find(" / rule ");
  if (source.rfind("skill ", 0) == 0 && rule != std::string::npos) {
    out.skill = source.substr(6, rule - 6);
    out.rule = source.substr(rule + 8);
  }
  out.step = step;
  out.severity = FromProto(f.severity());
  out.title = f.title();
  out.description = f.description();
  out.suggestions.assign(f.suggestions().begin(), f.suggestions().end());
  out.cause = f.cause();
  out.impact = f.has_impact() ? f.impact() : -1;
  if (f.evidence_size() > 0) {
    out.evidence_artifact_id = f.evidence(0).artifact_id();
    out.evidence_row = f.evidence(0).row();
    for (const auto& field : f.evidence(0).fields()) {
      out.evidence_fields.emplace_back(field.name(), skills::FromProto(field.value()));
    }
  }
  return out;
}

skills::SkillOutcome OutcomeFromName(const std::string& name) {
  if (name == "ok") return skills::SkillOutcome::kOk;
  if (name == "not_supported") return skills::SkillOutcome::kNotSupported;
  if (name == "invalid_argument") return skills::SkillOutcome::kInvalidArgument;
  return skills::SkillOutcome::kError;
}

}  // namespace

struct GrpcSkillRunner::Stub {
  std::unique_ptr<pb::SkillEngine::Stub> stub;
  std::string authorization;
};

GrpcSkillRunner::GrpcSkillRunner(const std::string& target, std::string trace_id)
    : GrpcSkillRunner(target, std::move(trace_id), "") {}

GrpcSkillRunner::GrpcSkillRunner(const std::string& target, std::string trace_id,
                                 std::string authorization)
    : stub_(std::make_unique<Stub>(
          Stub{pb::SkillEngine::NewStub(MakeChannel(target)), std::move(authorization)})),
      trace_id_(std::move(trace_id)) {}

GrpcSkillRunner::~GrpcSkillRunner() = default;

skills::SkillRunResult GrpcSkillRunner::Run(const std::string& skill,
                                            const std::map<std::string, SqlValue>& inputs) {
  const auto start = std::chrono::steady_clock::now();
  skills::SkillRunResult result;
  result.skill = skill;
  grpc::ClientContext context;
  Authorize(context, stub_->authorization);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(5));
  pb::InvokeSkillRequest request;
  request.set_trace_id(trace_id_);
  request.set_skill(skill);
  for (const auto& [name, value] : inputs) {
    if (!value.is_null()) (*request.mutable_params())[name] = AsText(value);
  }
  auto reader = stub_->stub->InvokeSkill(&context, request);
  pb::SkillEvent event;
  bool completed = false;
  // Called skills' step results, which findings may cite (SkillRunResult::cited).
  std::map<std::string, std::shared_ptr<const skills::StepResult>> nested;
  while (reader->Read(&event)) {
    switch (event.kind()) {
      case pb::SkillEvent::STEP_COMPLETED:
        if (event.depth() == 0 && event.has_envelope()) {
          auto step = std::make_shared<skills::StepResult>(skills::FromEnvelope(event.envelope()));
          step->status = event.step_status() == "ok"            ? skills::StepStatus::kOk
                         : event.step_status() == "skipped"       ? skills::StepStatus::kSkipped
                         : event.step_status() == "not_supported" ? skills::StepStatus::kNotSupported
                                                                  : skills::StepStatus::kFailed;
          result.steps.push_back(std::move(step));
        } else if (event.depth() > 0 && event.has_envelope() && !event.envelope().artifact_id().empty()) {
          auto step = std::make_shared<skills::StepResult>(skills::FromEnvelope(event.envelope()));
          nested.emplace(step->artifact_id, std::move(step));
        }
        break;
      case pb::SkillEvent::FINDING:
        result.findings.push_back(FromProto(event.finding(), event.step()));
        break;
      case pb::SkillEvent::SKILL_COMPLETED:
        if (event.depth() == 0) {
          completed = true;
          result.output_step = event.output_step();
          result.outcome = OutcomeFromName(event.outcome());
          result.message = event.message();
        }
        break;
      case pb::SkillEvent::SKILL_ERROR:
        if (event.depth() == 0) {
          completed = true;
          result.outcome = skills::SkillOutcome::kError;
          result.message = event.message();
        }
        break;
      default:
        break;
    }
  }
  for (const skills::Finding& f : result.findings) {
    auto it = nested.find(f.evidence_artifact_id);
    if (it == nested.end()) continue;
    bool have = false;
    for (const auto& c : result.cited) have |= c->artifact_id == it->first;
    if (!have) result.cited.push_back(it->second);
  }
  const grpc::Status status = reader->Finish();
  if (!status.ok()) {
    result.outcome = status.error_code() == grpc::StatusCode::INVALID_ARGUMENT
                         ? skills::SkillOutcome::kInvalidArgument
                         : skills::SkillOutcome::kError;
    result.message = absl::StrCat("skill-engine ", absl::StatusCodeToString(FromGrpc(status).code()),
                                  ": ", status.error_message());
  } else if (!completed) {
    result.outcome = skills::SkillOutcome::kError;
    result.message = "skill-engine ended the stream without a result";
  }
  result.elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  return result;
}

bool GrpcSkillRunner::HasSkill(const std::string& skill) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!names_loaded_) {
    grpc::ClientContext context;
    Authorize(context, stub_->authorization);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    pb::ListSkillsResponse response;
    if (!stub_->stub->ListSkills(&context, {}, &response).ok()) {
      // Unreachable engine: say yes, so the invocation reports the real error.
      return true;
    }
    for (const auto& s : response.skills()) names_.insert(s.name());
    names_loaded_ = true;
  }
  return names_.count(skill) > 0;
}

bool GrpcSkillRunner::TakesInput(const std::string& skill, const std::string& input) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = inputs_.find(skill);
  if (it == inputs_.end()) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    pb::DescribeSkillRequest request;
    request.set_name(skill);
    pb::SkillDescription response;
    if (!stub_->stub->DescribeSkill(&context, request, &response).ok()) return false;  // not cached
    std::set<std::string> names;
    for (const auto& in : response.inputs()) names.insert(in.name());
    it = inputs_.emplace(skill, std::move(names)).first;
  }
  return it->second.count(input) > 0;
}

}  // namespace tw::rpc
