#include "libs/skills/skill_library.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"

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
  if (const char* env = std::getenv("TRACEWISE_SKILLS_DIR"); env && *env) return env;
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::current_path(ec);
  for (int i = 0; i < 4 && !dir.empty(); ++i) {
    const auto candidate = dir / "skills";
    if (std::filesystem::is_directory(candidate, ec)) return candidate.string();
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return "skills";
}

}  // namespace tw::skills
