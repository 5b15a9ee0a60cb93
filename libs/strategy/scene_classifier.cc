#include "libs/strategy/scene_classifier.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "re2/re2.h"

namespace tw::strategy {
namespace {

bool IsAsciiWordChar(char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)); }

// A keyword must start at a word start when it starts with a letter, so "lag" does not match
// "flag"; its end is free so "jank" matches "janky" and "frame" matches "frames".
bool ContainsKeyword(const std::string& text, const std::string& keyword) {
  for (size_t pos = text.find(keyword); pos != std::string::npos;
       pos = text.find(keyword, pos + 1)) {
    if (pos == 0 || !IsAsciiWordChar(keyword[0]) || !IsAsciiWordChar(text[pos - 1])) return true;
  }
  return false;
}

}  // namespace

SceneClassifier::SceneClassifier(const std::vector<Strategy>& strategies) {
  for (const Strategy& s : strategies) {
    Scene scene;
    scene.name = s.scene;
    scene.priority = s.priority;
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
  for (const Scene& scene : scenes_) {
    for (const auto& re : scene.patterns) {
      if (RE2::PartialMatch(re2::StringPiece(question.data(), question.size()), *re)) {
        return {scene.name, "pattern", re->pattern()};
      }
    }
  }
  // ASCII lower-casing leaves CJK text untouched, so Chinese keywords match as plain substrings.
  const std::string lowered = absl::AsciiStrToLower(std::string(question));
  for (const Scene& scene : scenes_) {
    for (const std::string& keyword : scene.keywords) {
      if (!keyword.empty() && ContainsKeyword(lowered, keyword)) {
        return {scene.name, "keyword", keyword};
      }
    }
  }
  return {"general", "fallback", ""};
}

}  // namespace tw::strategy
