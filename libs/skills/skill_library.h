#pragma once
// A set of loaded skills, by name: what `skill:` steps call, what `tracewise skill list` shows
// and what the skill-engine serves.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "libs/skills/skill.h"
#include "libs/skills/skill_loader.h"

namespace tw::skills {

class SkillLibrary {
 public:
  // Loads every `*.skill.yaml` under `dir`. Files with errors are left out; their diagnostics
  // (and duplicate-name errors) are appended to `diagnostics`.
  static SkillLibrary LoadDirectory(const std::string& dir, std::vector<Diagnostic>* diagnostics);

  // False (and a diagnostic) if a skill of that name exists already.
  bool Add(Skill skill, std::vector<Diagnostic>* diagnostics);

  const Skill* Find(std::string_view name) const;
  // Sorted by category, then name.
  std::vector<const Skill*> All() const;
  size_t size() const { return skills_.size(); }

 private:
  std::map<std::string, std::shared_ptr<const Skill>, std::less<>> skills_;
};

// The directory skills are read from when none is given: $TRACEWISE_SKILLS_DIR, else `skills`
// next to the working directory or above it (so the CLI works from the checkout and build dirs).
std::string DefaultSkillsDir();

}  // namespace tw::skills
