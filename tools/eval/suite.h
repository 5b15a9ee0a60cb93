#pragma once
// The diagnosis benchmark's suite (suite.yaml): tracegen scenarios × variants (seed, refresh
// rate, duration, device) × questions (phrasings per scene from questions.yaml), each case with
// what a correct diagnosis must say — the planted causes (detected in the top findings), the
// thread / process / method it must name (attribution), what it must not blame (decoys), or
// that the trace is clean (no critical or high finding).

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/tracegen/tracegen.h"

namespace tw::eval {

struct Variant {
  uint64_t seed = 1;
  int fps = 60;
  double duration_s = 0;  // 0: the scenario's default
  uint32_t little_cpus = 4, big_cpus = 4;
  bool ci = false;        // part of the CI subset
  std::string Label() const;
};

struct Expectation {
  std::vector<std::string> causes;      // cause keys, each to be detected in the top findings
  std::vector<std::string> name;        // words the top findings must state (attribution)
  std::vector<std::string> not_blamed;  // words no critical/high finding may state (decoys)
  bool clean = false;                   // no critical/high finding at all
};

struct Case {
  std::string id;
  std::string scenario;
  std::string scene;          // the scene the case's questions are about (for the tables)
  std::vector<Variant> variants;
  std::string question_set;   // a scene's phrasings from questions.yaml
  int questions_per_variant = 4;
  // Where this case's window starts in its set: the windows of earlier cases of the same set come
  // first, so the cases of a scene together ask every phrasing (set by LoadSuite).
  size_t question_offset = 0;
  std::vector<std::string> questions;  // explicit questions (instead of / besides a set)
  Expectation expect;
};

struct Suite {
  std::string name;
  int top_findings = 3;  // detection and attribution look at this many findings
  std::map<std::string, std::vector<std::string>> cause_words;  // cause key → words that name it
  std::map<std::string, std::vector<std::string>> question_sets;
  std::vector<Case> cases;

  // The questions a variant of a case asks: the explicit ones, then a window of the set that
  // moves with the variant, so the variants together ask every phrasing.
  std::vector<std::string> QuestionsFor(const Case& c, size_t variant_index) const;
};

// Loads `path`; `questions.yaml` is read from the path its `questions:` key gives (relative to
// the suite).
absl::StatusOr<Suite> LoadSuite(const std::string& path);

// The suite shipped in the repository (TRACEWISE_EVAL_SUITE, else tools/eval/suite.yaml found
// from the working directory or the executable), or "" if none is found.
std::string DefaultSuitePath();

}  // namespace tw::eval
