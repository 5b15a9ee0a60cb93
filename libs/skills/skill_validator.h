#pragma once
// Checks skills beyond what the loader can see in one file:
//   - references: `steps.X` names an earlier step, `inputs.X` an input, `row` is only used where
//     there is a current row, columns read from a step's rows exist in that step's output;
//   - SQL parameters: every `:name` is an input or a step `params` entry (nothing is ever spliced
//     into SQL text, so this is the only way values reach it); `?`, `$x` and `@x` are refused;
//   - `skill:` steps call skills that exist, with arguments they declare and every required one;
//   - against the engine (an empty trace database with all tables and stdlib modules):
//     `requires.modules` exist, `requires.tables` exist once those modules are included, and
//     every step's SQL prepares and runs over the empty schema; display columns and
//     `rows[...].col` references match the columns the SQL really produces.
// A required module the engine does not provide yet is a warning (the skill then reports "not
// supported" at run time), and the SQL of that skill cannot be checked.

#include <map>
#include <string>
#include <vector>

#include "libs/skills/skill.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/skill_loader.h"

namespace tw::skills {

struct ValidationOptions {
  bool check_against_engine = true;  // SQL, tables, modules
};

// Appends problems with `skill` to `diagnostics`.
void ValidateSkill(const Skill& skill, const SkillLibrary& library,
                   const ValidationOptions& options, std::vector<Diagnostic>* diagnostics);

// Loads and validates every skill under `dir`. Returns all diagnostics (load errors included).
std::vector<Diagnostic> ValidateSkillDirectory(const std::string& dir,
                                               const ValidationOptions& options = {});

// The `:name` parameters a SQL text uses (each once, in order of first use). Variables of the
// other forms (`?`, `?N`, `$x`, `@x`) go to `other` if not null.
std::vector<std::string> SqlParameterNames(std::string_view sql,
                                           std::vector<std::string>* other = nullptr);

}  // namespace tw::skills
