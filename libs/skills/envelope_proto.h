#pragma once
// The skill engine's results as protos (protos/tracewise/v1): a StepResult becomes a
// DataEnvelope, a Finding a Finding with its Evidence, an executor event a SkillEvent. Kept out of
// the core library (tw_skills) so code that only runs skills does not link protobuf.

#include <string>

#include "libs/skills/skill.h"
#include "libs/skills/skill_executor.h"
#include "libs/skills/step_result.h"
#include "tracewise/v1/common.pb.h"
#include "tracewise/v1/skill_engine.pb.h"

namespace tw::skills {

tracewise::v1::Value ToProto(const SqlValue& value);
tracewise::v1::ColumnType ToProto(ColumnType type);
tracewise::v1::Severity ToProto(Severity severity);
// `trace_id` goes into the provenance.
tracewise::v1::DataEnvelope ToEnvelope(const StepResult& result, const std::string& trace_id = "");
tracewise::v1::Finding ToProto(const Finding& finding);
tracewise::v1::SkillEvent ToProto(const SkillEvent& event, const std::string& trace_id = "");
tracewise::v1::SkillSummary ToSummary(const Skill& skill);
tracewise::v1::SkillDescription ToDescription(const Skill& skill);

// Back from the wire (a gRPC client of the skill-engine): the inverse of ToEnvelope.
StepResult FromEnvelope(const tracewise::v1::DataEnvelope& envelope);
SqlValue FromProto(const tracewise::v1::Value& value);

}  // namespace tw::skills
