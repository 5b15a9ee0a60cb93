#include "libs/agent/skill_runner.h"

#include "absl/strings/str_cat.h"

namespace tw::agent {

skills::SkillRunResult LocalSkillRunner::Run(const std::string& skill,
                                             const std::map<std::string, SqlValue>& inputs) {
  const skills::Skill* found = library_.Find(skill);
  if (!found) {
    skills::SkillRunResult result;
    result.skill = skill;
    result.outcome = skills::SkillOutcome::kInvalidArgument;
    result.message = absl::StrCat("unknown skill '", skill, "'");
    return result;
  }
  return executor_.RunWithValues(*found, inputs, nullptr, 0);
}

}  // namespace tw::agent
