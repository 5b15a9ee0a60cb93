#include "libs/strategy/scene_classifier.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "libs/strategy/question_reader.h"
#include "re2/re2.h"

namespace tw::strategy {

SceneClassifier::SceneClassifier(const std::vector<Strategy>& strategies) {
  for (const Strategy& s : strategies) {
    Scene scene;
    scene.name = s.scene;
    scene.priority = s.priority;
    scene.general = s.scene == "general";
    for (const std::string& keyword : s.keywords) {
      scene.keywords.push_back(absl::AsciiStrToLower(keyword));
    }
    RE2::Options options;
    options.set_case_sensitive(false);
    options.set_log_errors(false);
    for (const std::string& pattern : s.patterns) {
      auto re = std::make_unique<RE2>(pattern, options);
      if (re->ok()) scene.patterns.push_back(std::move(re));
    }
    scenes_.push_back(std::move(scene));
  }
  std::stable_sort(scenes_.begin(), scenes_.end(), [](const Scene& a, const Scene& b) {
    return a.priority != b.priority ? a.priority > b.priority : a.name < b.name;
  });
}

SceneClassifier::~SceneClassifier() = default;
SceneClassifier::SceneClassifier(SceneClassifier&&) noexcept = default;
SceneClassifier& SceneClassifier::operator=(SceneClassifier&&) noexcept = default;

SceneMatch SceneClassifier::Classify(std::string_view question) const {
  struct Scored {
    const Scene* scene;
    int score = 0;
    bool by_pattern = false;
    std::string evidence;
  };
  // ASCII lower-casing leaves CJK text untouched, so Chinese keywords match as plain substrings.
  const std::string lowered = absl::AsciiStrToLower(std::string(question));
  const re2::StringPiece text(question.data(), question.size());
  std::vector<Scored> scored;
  for (const Scene& scene : scenes_) {  // priority order: stable sorting keeps it on ties
    Scored s{&scene};
    for (const auto& re : scene.patterns) {
      if (!RE2::PartialMatch(text, *re)) continue;
      s.score += 3;
      if (!s.by_pattern) s.evidence = re->pattern();
      s.by_pattern = true;
    }
    for (const std::string& keyword : scene.keywords) {
      if (!ContainsKeyword(lowered, keyword)) continue;
      s.score += 1;
      if (s.evidence.empty()) s.evidence = keyword;
    }
    if (s.score > 0) scored.push_back(std::move(s));
  }
  std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    if (a.scene->general != b.scene->general) return !a.scene->general;
    return a.score > b.score;
  });
  if (scored.empty()) return {"general", "fallback", "", 0, "", false};
  const Scored& best = scored[0];
  SceneMatch match{best.scene->name, best.by_pattern ? "pattern" : "keyword", best.evidence,
                   best.score, "", false};
  if (scored.size() > 1 && !scored[1].scene->general) {
    match.runner_up = scored[1].scene->name;
    match.ambiguous = scored[1].score >= best.score;
  }
  return match;
}

}  // namespace tw::strategy
