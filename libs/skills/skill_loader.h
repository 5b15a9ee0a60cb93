#pragma once
// Reads `*.skill.yaml` into the skill model. Strict: unknown fields, wrong types, missing
// required fields, duplicate ids and malformed expressions are all errors with file:line:column
// (from yaml-cpp's marks), collected so one run reports every problem in a file.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libs/skills/skill.h"

namespace tw::skills {

struct Diagnostic {
  SourceLocation location;
  std::string message;
  bool warning = false;  // warnings do not fail validation (unless strict)
  std::string ToString() const;  // "file:line:col: error: message"
};

struct LoadedSkill {
  std::optional<Skill> skill;  // set when there were no errors
  std::vector<Diagnostic> diagnostics;
};

// `file` names the source in locations.
LoadedSkill ParseSkillYaml(std::string_view yaml, const std::string& file);
LoadedSkill LoadSkillFile(const std::string& path);

// Every `*.skill.yaml` under `dir`, recursively, in path order.
std::vector<std::string> FindSkillFiles(const std::string& dir);

}  // namespace tw::skills
