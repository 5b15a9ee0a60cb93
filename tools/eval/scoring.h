#pragma once
// How one diagnosis is scored against its case's expectations:
// - detection: every planted cause is named in one of the top findings (its cause key, or a word
//   that names it in the title or description);
// - attribution: every word the case says to name (thread, process, method) is in the top
//   findings;
// - false positive: a critical or high finding on a clean trace, or one that blames a decoy;
// - grounding: of the numbers the findings and the answer state (as the verifier reads them:
//   thresholds, well-known constants and small bare counts aside), the share found in the
//   artifacts they cite;
// - answered: a direct answer line stating a number, "Yes"/"No" first for a yes/no question.

#include <string>
#include <vector>

#include "libs/agent/analysis_report.h"
#include "libs/strategy/question_reader.h"
#include "tools/eval/suite.h"

namespace tw::eval {

struct Score {
  bool has_problem = false;  // the case plants a problem (detection/attribution apply)
  bool detected = false;
  bool attributed = false;
  bool false_positive = false;
  int stated_numbers = 0;
  int grounded_numbers = 0;
  bool answered = false;
  bool routed = false;  // the question reached the case's scene (or general for general sets)
  std::vector<std::string> notes;  // what was missed, for the detailed report
};

Score ScoreReport(const agent::AnalysisReport& report, const Case& c, const Suite& suite,
                  const strategy::QuestionIntent& intent);

}  // namespace tw::eval
