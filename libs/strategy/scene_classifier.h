#pragma once
// Picks the scene for a user's question by score: every pattern (regular expression) of a scene
// that matches counts 3, every keyword 1, because patterns encode intent more precisely ("slow
// to (open|launch)" is startup even though "slow" alone means nothing). The highest score wins,
// priority breaks ties, and a specific scene always beats `general`, whose own words only make
// a question general when no scene claims it. Questions matching nothing fall back to
// `general`. When the runner-up scores as high as the winner the match is `ambiguous` and the
// analyst looks at both. Classification runs on every question, so patterns are compiled once
// here and matching costs microseconds.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libs/strategy/strategy.h"

namespace re2 {
class RE2;
}

namespace tw::strategy {

struct SceneMatch {
  std::string scene;
  std::string matched_by;  // "pattern", "keyword" or "fallback"
  std::string evidence;    // the (first) pattern or keyword that matched
  int score = 0;
  std::string runner_up;   // the next specific scene that matched, if any
  bool ambiguous = false;  // the runner-up scored as high as the winner
};

class SceneClassifier {
 public:
  // Strategies with invalid patterns are rejected at parse time, so every pattern compiles.
  explicit SceneClassifier(const std::vector<Strategy>& strategies);
  ~SceneClassifier();
  SceneClassifier(SceneClassifier&&) noexcept;
  SceneClassifier& operator=(SceneClassifier&&) noexcept;

  SceneMatch Classify(std::string_view question) const;

 private:
  struct Scene {
    std::string name;
    int priority = 0;
    bool general = false;
    std::vector<std::string> keywords;  // lower-cased
    std::vector<std::unique_ptr<re2::RE2>> patterns;
  };
  std::vector<Scene> scenes_;  // by descending priority, then name
};

}  // namespace tw::strategy
