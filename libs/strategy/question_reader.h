#pragma once
// Reads what a question asks beyond its scene: whether it wants a yes or a no, whether it asks
// about change over time ("gets worse after a while"), whether it is a general question ("what
// is wrong here?"), and which app it names. The words and patterns are content
// (`strategies/questions.md`), so a phrasing is taught without touching C++; patterns are
// compiled once and matching costs microseconds.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/strategy/strategy.h"

namespace re2 {
class RE2;
}

namespace tw::strategy {

struct QuestionIntent {
  bool yes_no = false;     // "is scrolling smooth?", "是否流畅" — the answer starts with Yes/No
  bool over_time = false;  // "does it get worse after a while?" — compare intervals
  bool general = false;    // "what is wrong with this trace?" — look wherever problems are
  std::string package;     // an app package the question names ("com.example.news"), or empty
};

// The lexicon of `strategies/questions.md` (frontmatter lists of RE2 patterns, matched
// case-insensitively): `yes_no` (with `yes_no_starts`, words that open a yes/no question),
// `over_time`, `general`.
struct QuestionLexicon {
  std::vector<std::string> yes_no_starts;
  std::vector<std::string> yes_no;
  std::vector<std::string> over_time;
  std::vector<std::string> general;
};

absl::StatusOr<QuestionLexicon> ParseQuestionLexicon(std::string_view text, const std::string& path);

class QuestionReader {
 public:
  QuestionReader();  // an empty lexicon: only package names are recognised
  explicit QuestionReader(const QuestionLexicon& lexicon);
  ~QuestionReader();
  QuestionReader(QuestionReader&&) noexcept;
  QuestionReader& operator=(QuestionReader&&) noexcept;

  QuestionIntent Read(std::string_view question) const;
  // For a yes/no question: whether it asks if `scene` is healthy ("is it smooth?") rather than
  // whether it has a problem ("does it stutter?"), by the scene's healthy words.
  static bool AsksHealthy(std::string_view question, const Strategy& scene);

 private:
  std::vector<std::string> starts_;  // lower-cased first words
  std::vector<std::unique_ptr<re2::RE2>> yes_no_, over_time_, general_;
};

// A keyword occurs in lower-cased `text`: at a word start when it starts with an ASCII letter
// or digit ("lag" is not in "flag"), anywhere otherwise (Chinese); its end is free so "jank"
// matches "janky".
bool ContainsKeyword(const std::string& lowered_text, const std::string& lowered_keyword);

}  // namespace tw::strategy
