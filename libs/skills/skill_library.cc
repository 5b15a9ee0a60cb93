#include "libs/skills/skill_library.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "libs/common/resource_dir.h"

namespace tw::skills {

SkillLibrary SkillLibrary::LoadDirectory(const std::string& dir,
                                         std::vector<Diagnostic>* diagnostics) {
  SkillLibrary library;
  const std::vector<std::string> files = FindSkillFiles(dir);
  if (files.empty()) {
    diagnostics->push_back({SourceLocation{dir, 0, 0}, "no *.skill.yaml files found", false});
  }
  for (const std::string& file : files) {
    LoadedSkill loaded = LoadSkillFile(file);
    diagnostics->insert(diagnostics->end(), loaded.diagnostics.begin(), loaded.diagnostics.end());
    if (loaded.skill) library.Add(std::move(*loaded.skill), diagnostics);
  }
  return library;
}

bool SkillLibrary::Add(Skill skill, std::vector<Diagnostic>* diagnostics) {
  auto it = skills_.find(skill.name);
  if (it != skills_.end()) {
    diagnostics->push_back({skill.location,
                            absl::StrCat("duplicate skill name '", skill.name, "' (also in ",
                                         it->second->location.file, ")"),
                            false});
    return false;
  }
  const std::string name = skill.name;
  skills_.emplace(name, std::make_shared<const Skill>(std::move(skill)));
  return true;
}

const Skill* SkillLibrary::Find(std::string_view name) const {
  auto it = skills_.find(name);
  return it == skills_.end() ? nullptr : it->second.get();
}

std::vector<const Skill*> SkillLibrary::All() const {
  std::vector<const Skill*> out;
  for (const auto& [name, skill] : skills_) out.push_back(skill.get());
  std::stable_sort(out.begin(), out.end(), [](const Skill* a, const Skill* b) {
    return a->category != b->category ? a->category < b->category : a->name < b->name;
  });
  return out;
}

std::string DefaultSkillsDir() {
  // skills/README.md marks the folder (every checkout has it, even one with no skills yet).
  return FindResourceDir("TRACEWISE_SKILLS_DIR", "skills", "README.md");
}

}  // namespace tw::skills
