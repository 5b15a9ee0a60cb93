#pragma once
// The seam between analyses and the skill engine (DESIGN.md §1): run a skill by name with typed
// inputs. `LocalSkillRunner` runs it in this process; libs/rpc provides the skill-engine client.

#include <map>
#include <string>

#include "libs/skills/skill_executor.h"

namespace tw::agent {

class SkillRunner {
 public:
  virtual ~SkillRunner() = default;
  // Unknown skills and bad inputs come back as a SkillRunResult with the matching outcome, so a
  // procedure can report them like any other failed step.
  virtual skills::SkillRunResult Run(const std::string& skill,
                                     const std::map<std::string, SqlValue>& inputs) = 0;
  // Whether a skill of that name exists (strategy validation, planning).
  virtual bool HasSkill(const std::string& skill) const = 0;
  // Whether the skill declares an input of that name (a selection's window goes to the skills
  // that take start_ts / end_ts). False when unknown.
  virtual bool TakesInput(const std::string& skill, const std::string& input) const = 0;
};

class LocalSkillRunner : public SkillRunner {
 public:
  LocalSkillRunner(const skills::SkillLibrary& library, skills::SkillQueryRunner& queries)
      : library_(library), executor_(library, queries) {}

  skills::SkillRunResult Run(const std::string& skill,
                             const std::map<std::string, SqlValue>& inputs) override;
  bool HasSkill(const std::string& skill) const override { return library_.Find(skill); }
  bool TakesInput(const std::string& skill, const std::string& input) const override {
    const skills::Skill* found = library_.Find(skill);
    return found != nullptr && found->FindInput(input) != nullptr;
  }

 private:
  const skills::SkillLibrary& library_;
  skills::SkillExecutor executor_;
};

}  // namespace tw::agent
