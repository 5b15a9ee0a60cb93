#pragma once
// Links each number a finding states to the evidence row it came from, by the verifier's own
// grounding rule (libs/verify: stated numbers with units and rounding, matched against the
// cells of the artifacts the finding cites). Works on the report JSON a turn stores
// (`agent::RenderJson`): adds findings[i].links and findings[i].title_links =
// [{start, end, text, artifact_id, row, column}], offsets in UTF-16 code units (what browsers
// index strings by). Numbers no cited cell grounds get no link.

#include <nlohmann/json.hpp>

namespace tw::gateway {

void AddNumberLinks(nlohmann::json& report);

}  // namespace tw::gateway
