#pragma once
// A skill run through SkillEngine.InvokeSkill, collected into one JSON object:
// {skill, outcome, message, output_step, elapsed_ns, steps: [{step, status, envelope}],
//  findings: [...]}. Steps are the invoked skill's own (depth 0); findings come from any depth.

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "services/gateway/gateway_context.h"

namespace tw::gateway {

absl::StatusOr<nlohmann::json> RunSkill(GatewayContext& ctx, const Caller& caller,
                                        const std::string& trace_id, const std::string& skill,
                                        const std::map<std::string, std::string>& params);

}  // namespace tw::gateway
