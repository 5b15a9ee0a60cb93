#include "libs/strategy/strategy_library.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/common/resource_dir.h"
#include "libs/common/status_macros.h"
#include "libs/strategy/strategy_parser.h"

namespace tw::strategy {
namespace fs = std::filesystem;
namespace {

absl::StatusOr<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path.string()));
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Files in `dir` whose names end with `suffix`, sorted so loading is deterministic.
std::vector<fs::path> FilesEndingWith(const fs::path& dir, std::string_view suffix) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

StrategyLibrary::StrategyLibrary(std::vector<Strategy> strategies,
                                 std::vector<PromptTemplate> templates, KnowledgeBase knowledge,
                                 const QuestionLexicon& questions,
                                 std::vector<ProcedureStep> context_probes)
    : strategies_(std::move(strategies)),
      templates_(std::move(templates)),
      knowledge_(std::move(knowledge)),
      classifier_(strategies_),
      questions_(questions),
      context_probes_(std::move(context_probes)) {}

absl::StatusOr<StrategyLibrary> StrategyLibrary::Load(const std::string& dir) {
  if (!fs::is_directory(dir)) {
    return absl::NotFoundError(absl::StrCat("strategies directory not found: ", dir));
  }
  std::vector<Strategy> strategies;
  std::set<std::string> scenes;
  for (const fs::path& path : FilesEndingWith(dir, ".strategy.md")) {
    ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    ASSIGN_OR_RETURN(Strategy strategy, ParseStrategy(text, path.string()));
    if (!scenes.insert(strategy.scene).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(path.string(), ": scene '", strategy.scene, "' is declared twice"));
    }
    strategies.push_back(std::move(strategy));
  }
  if (!scenes.count("general")) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir, ": no 'general' strategy; questions matching no scene need a fallback"));
  }
  std::vector<PromptTemplate> templates;
  for (const fs::path& path : FilesEndingWith(fs::path(dir) / "templates", ".md")) {
    ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    ASSIGN_OR_RETURN(PromptTemplate tmpl,
                     ParsePromptTemplate(text, path.stem().string(), path.string()));
    templates.push_back(std::move(tmpl));
  }
  std::vector<KnowledgeTopic> topics;
  std::set<std::string> topic_ids;
  for (const fs::path& path : FilesEndingWith(fs::path(dir) / "knowledge", ".md")) {
    ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    ASSIGN_OR_RETURN(KnowledgeTopic topic, ParseKnowledgeTopic(text, path.string()));
    if (!topic_ids.insert(topic.topic).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(path.string(), ": topic '", topic.topic, "' is declared twice"));
    }
    topics.push_back(std::move(topic));
  }
  std::set<std::string> pitfall_ids;
  for (const fs::path& path : FilesEndingWith(fs::path(dir) / "pitfalls", ".md")) {
    ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    ASSIGN_OR_RETURN(Pitfall pitfall, ParsePitfall(text, path.string()));
    if (!pitfall_ids.insert(pitfall.id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(path.string(), ": pitfall '", pitfall.id, "' is declared twice"));
    }
    // Each scene carries the pitfalls that apply to it, so whoever holds a scene (the offline
    // analyst, the agent's session) can hand the verifier its rules.
    for (Strategy& s : strategies) {
      if (pitfall.scenes.empty() ||
          std::find(pitfall.scenes.begin(), pitfall.scenes.end(), s.scene) != pitfall.scenes.end()) {
        s.pitfalls.push_back(pitfall);
      }
    }
  }
  QuestionLexicon questions;
  if (const fs::path path = fs::path(dir) / "questions.md"; fs::exists(path)) {
    ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    ASSIGN_OR_RETURN(questions, ParseQuestionLexicon(text, path.string()));
  }
  std::vector<ProcedureStep> context_probes;
  if (const fs::path path = fs::path(dir) / "context.md"; fs::exists(path)) {
    ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    ASSIGN_OR_RETURN(context_probes, ParseContextProbes(text, path.string()));
  }
  return StrategyLibrary(std::move(strategies), std::move(templates),
                         KnowledgeBase(std::move(topics)), questions, std::move(context_probes));
}

const Strategy* StrategyLibrary::Find(const std::string& scene) const {
  for (const Strategy& s : strategies_) {
    if (s.scene == scene) return &s;
  }
  return nullptr;
}

const PromptTemplate* StrategyLibrary::FindTemplate(const std::string& name) const {
  for (const PromptTemplate& t : templates_) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::string DefaultStrategiesDir() {
  return FindResourceDir("TRACEWISE_STRATEGIES_DIR", "strategies", "general.strategy.md");
}

}  // namespace tw::strategy
