// `tracewise strategy validate [DIR] [--skills DIR]`: loads every strategy, template and
// knowledge topic and checks the strategies against the skill library (CI runs it).
// `tracewise strategy classify "question"`: shows which scene a question goes to, and why.

#include <cstdio>
#include <string>

#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"
#include "libs/strategy/strategy_validator.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

constexpr char kUsage[] =
    "usage: tracewise strategy validate [DIR] [--skills DIR]\n"
    "       tracewise strategy classify \"question\" [--strategies DIR]\n";

int Validate(const Args& args) {
  std::string dir, skills_dir;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--skills" && i + 1 < args.size()) {
      skills_dir = args[++i];
    } else if (args[i].rfind("--", 0) != 0 && dir.empty()) {
      dir = args[i];
    } else {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  auto library = strategy::StrategyLibrary::Load(dir.empty() ? strategy::DefaultStrategiesDir() : dir);
  if (!library.ok()) {
    std::fprintf(stderr, "%s\n", std::string(library.status().message()).c_str());
    return 1;
  }
  std::vector<skills::Diagnostic> skill_diagnostics;
  skills::SkillLibrary skills = skills::SkillLibrary::LoadDirectory(
      skills_dir.empty() ? skills::DefaultSkillsDir() : skills_dir, &skill_diagnostics);
  const auto diagnostics = strategy::ValidateStrategies(*library, skills);
  for (const auto& d : diagnostics) std::fprintf(stderr, "%s\n", d.ToString().c_str());
  std::printf("%zu strategies, %zu templates, %zu knowledge topics checked against %zu skills: "
              "%zu errors\n",
              library->strategies().size(), library->templates().size(),
              library->knowledge().topics().size(), skills.size(), diagnostics.size());
  return diagnostics.empty() ? 0 : 1;
}

int Classify(const Args& args) {
  std::string question, dir;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--strategies" && i + 1 < args.size()) {
      dir = args[++i];
    } else if (question.empty()) {
      question = args[i];
    } else {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  auto library = strategy::StrategyLibrary::Load(dir.empty() ? strategy::DefaultStrategiesDir() : dir);
  if (!library.ok()) {
    std::fprintf(stderr, "%s\n", std::string(library.status().message()).c_str());
    return 1;
  }
  const strategy::SceneMatch match = library->classifier().Classify(question);
  std::printf("%s\t(%s%s%s)\n", match.scene.c_str(), match.matched_by.c_str(),
              match.evidence.empty() ? "" : ": ", match.evidence.c_str());
  return 0;
}

}  // namespace

int RunStrategy(const Args& args) {
  if (args.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const Args rest(args.begin() + 1, args.end());
  if (args[0] == "validate") return Validate(rest);
  if (args[0] == "classify") return Classify(rest);
  std::fputs(kUsage, stderr);
  return 2;
}

}  // namespace tw::cli
