// GET /api/skills, GET /api/skills/{name}, POST /api/traces/{id}/skill-runs.

#include "absl/strings/str_cat.h"
#include "services/gateway/json_convert.h"
#include "services/gateway/skill_run.h"

namespace tw::gateway {

absl::StatusOr<nlohmann::json> RunSkill(GatewayContext& ctx, const Caller& caller,
                                        const std::string& trace_id, const std::string& skill,
                                        const std::map<std::string, std::string>& params) {
  pb::InvokeSkillRequest request;
  request.set_trace_id(trace_id);
  request.set_skill(skill);
  for (const auto& [k, v] : params) (*request.mutable_params())[k] = v;
  auto call = ctx.NewCall(caller, ctx.options.skill_timeout_ms);
  auto reader = ctx.skill_engine->InvokeSkill(call.get(), request);
  nlohmann::json steps = nlohmann::json::array();
  nlohmann::json findings = nlohmann::json::array();
  nlohmann::json out = {
      {"skill", skill}, {"outcome", "error"}, {"message", ""}, {"output_step", ""}};
  pb::SkillEvent e;
  while (reader->Read(&e)) {
    switch (e.kind()) {
      case pb::SkillEvent::STEP_COMPLETED:
        if (e.depth() == 0) {
          nlohmann::json step = {
              {"step", e.step()}, {"status", e.step_status()}, {"elapsed_ns", e.elapsed_ns()}};
          if (e.has_envelope()) step["envelope"] = EnvelopeJson(e.envelope());
          if (!e.message().empty()) step["message"] = e.message();
          steps.push_back(std::move(step));
        }
        break;
      case pb::SkillEvent::FINDING:
        findings.push_back(FindingJson(e.finding()));
        break;
      case pb::SkillEvent::SKILL_COMPLETED:
        if (e.depth() == 0) {
          out["outcome"] = e.outcome();
          out["message"] = e.message();
          out["output_step"] = e.output_step();
          out["elapsed_ns"] = e.elapsed_ns();
        }
        break;
      case pb::SkillEvent::SKILL_ERROR:
        if (e.depth() == 0) {
          out["outcome"] = "error";
          out["message"] = e.message().empty() ? e.outcome() : e.message();
        }
        break;
      default:
        break;
    }
  }
  const grpc::Status status = reader->Finish();
  if (!status.ok()) return FromGrpc(status);
  out["steps"] = std::move(steps);
  out["findings"] = std::move(findings);
  return out;
}

void RegisterSkillRoutes(httplib::Server& server, GatewayContext& ctx) {
  server.Get(
      "/api/skills",
      Api(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller) {
        pb::ListSkillsRequest request;
        request.set_category(req.get_param_value("category"));
        pb::ListSkillsResponse response;
        if (absl::Status s = Unary(ctx, caller, ctx.options.unary_timeout_ms,
                                   [&](grpc::ClientContext* c) {
                                     return ctx.skill_engine->ListSkills(c, request, &response);
                                   });
            !s.ok()) {
          return SendError(res, s);
        }
        nlohmann::json skills = nlohmann::json::array();
        for (const auto& s : response.skills()) skills.push_back(SkillSummaryJson(s));
        SendJson(res, 200, {{"skills", std::move(skills)}});
      }));
  server.Get(
      R"(/api/skills/([^/]+))",
      Api(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller) {
        pb::DescribeSkillRequest request;
        request.set_name(req.matches[1]);
        pb::SkillDescription response;
        if (absl::Status s = Unary(ctx, caller, ctx.options.unary_timeout_ms,
                                   [&](grpc::ClientContext* c) {
                                     return ctx.skill_engine->DescribeSkill(c, request, &response);
                                   });
            !s.ok()) {
          return SendError(res, s);
        }
        SendJson(res, 200, SkillDescriptionJson(response));
      }));
  server.Post(
      R"(/api/traces/([^/]+)/skill-runs)",
      JsonApi(ctx, [&ctx](const httplib::Request& req, httplib::Response& res, const Caller& caller,
                          const nlohmann::json& body) {
        const auto skill = body.find("skill");
        if (skill == body.end() || !skill->is_string() || skill->get<std::string>().empty()) {
          return SendError(res, absl::InvalidArgumentError("skill (a name) is required"));
        }
        std::map<std::string, std::string> params;
        if (const auto p = body.find("params"); p != body.end() && !p->is_null()) {
          if (!p->is_object())
            return SendError(res, absl::InvalidArgumentError("params must be an object"));
          for (const auto& [k, v] : p->items()) {
            if (v.is_string()) {
              params[k] = v.get<std::string>();
            } else if (v.is_number() || v.is_boolean()) {
              params[k] = v.dump();
            } else {
              return SendError(res, absl::InvalidArgumentError(absl::StrCat(
                                        "params.", k, " must be a string, number or boolean")));
            }
          }
        }
        auto run = RunSkill(ctx, caller, req.matches[1], skill->get<std::string>(), params);
        if (!run.ok()) return SendError(res, run.status());
        SendJson(res, 200, *run);
      }));
}

}  // namespace tw::gateway
