#pragma once
// Picks the scene for a user's question. Patterns (regular expressions) are tried before
// keywords because they encode intent more precisely ("slow to (open|launch)" is startup even
// though "slow" alone means nothing); within each pass the highest-priority scene wins.
// Questions matching nothing fall back to `general`. Classification runs on every question, so
// patterns are compiled once here and matching costs microseconds.

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
  std::string evidence;    // the pattern or keyword that matched
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
    std::vector<std::string> keywords;  // lower-cased
    std::vector<std::unique_ptr<re2::RE2>> patterns;
  };
  std::vector<Scene> scenes_;  // by descending priority, then name
};

}  // namespace tw::strategy
