#pragma once
// The direct answer to the question: the report's first line. It answers what was asked with
// the numbers that show it — "Yes — scrolling is smooth: 0 of 200 frames missed their deadline
// (0 %); p99 frame time 9.1 ms at 60 Hz." — yes/no first for a yes/no question, the main cause
// for a problem, a confident healthy verdict with its metrics for a clean trace, and what
// another scene shows when the question's own scene is clean or absent. Its words come from the
// strategies (`verdict`), its numbers from the scene signals and findings it cites.

#include <string>
#include <vector>

#include "libs/agent/analysis_report.h"
#include "libs/agent/scene_plan.h"
#include "libs/strategy/strategy_library.h"

namespace tw::agent {

struct AnswerLine {
  std::string text;
  std::vector<std::string> evidence;  // artifact ids of the numbers it states
};

AnswerLine ComposeAnswer(const std::string& question, const strategy::QuestionIntent& intent,
                         const ScenePlan& plan, const std::vector<SceneSignalReading>& signals,
                         const strategy::StrategyLibrary& strategies,
                         const std::vector<ReportFinding>& findings);

}  // namespace tw::agent
