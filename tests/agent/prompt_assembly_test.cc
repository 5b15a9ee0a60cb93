#include "libs/agent/prompt_assembly.h"

#include <gtest/gtest.h>

#include "libs/agent/analysis_mode.h"

namespace tw::agent {
namespace {

std::vector<PromptSection> Sections() {
  return {
      {"Selection", PromptTier::kInteraction, std::string(400, 's'), true, 2},
      {"Role", PromptTier::kStatic, "You are Tracewise.", false, 0},
      {"Trace context", PromptTier::kTrace, std::string(400, 't'), false, 0},
      {"Notes", PromptTier::kInteraction, std::string(400, 'n'), true, 1},
      {"Strategy", PromptTier::kQuery, std::string(400, 'q'), true, 3},
  };
}

TEST(PromptAssemblyTest, OrdersByStabilityAndMarksTheCacheablePrefix) {
  AssembledPrompt p = AssemblePrompt(Sections(), 100000);
  EXPECT_EQ(p.included, (std::vector<std::string>{"Role", "Trace context", "Strategy", "Selection",
                                                  "Notes"}));
  EXPECT_TRUE(p.dropped.empty());
  const std::string prefix = p.text.substr(0, p.cacheable_prefix_chars);
  EXPECT_NE(prefix.find("## Trace context"), std::string::npos);
  EXPECT_EQ(prefix.find("## Strategy"), std::string::npos);
  // The prefix does not change when the per-interaction sections do.
  auto other = Sections();
  other[0].text = "a different selection";
  EXPECT_EQ(AssemblePrompt(other, 100000).text.substr(0, p.cacheable_prefix_chars), prefix);
}

TEST(PromptAssemblyTest, DropsWholeOptionalSectionsInPriorityOrder) {
  // Each 400-char section is ~100 tokens; the required ones ~110.
  AssembledPrompt p = AssemblePrompt(Sections(), 250);
  EXPECT_EQ(p.dropped, (std::vector<std::string>{"Notes", "Selection"}));
  EXPECT_FALSE(p.over_budget);
  EXPECT_LE(p.estimated_tokens, 250);
  AssembledPrompt tiny = AssemblePrompt(Sections(), 10);
  EXPECT_TRUE(tiny.over_budget);  // required sections are never dropped
  EXPECT_NE(tiny.text.find("You are Tracewise."), std::string::npos);
}

TEST(PromptAssemblyTest, TokenEstimateCountsCjkPerCharacter) {
  EXPECT_EQ(EstimateTokens("abcdefgh"), 2);
  EXPECT_EQ(EstimateTokens("为什么卡顿"), 5);
}

TEST(AnalysisModeTest, AutoRules) {
  EXPECT_EQ(ChooseMode("auto", "why does it stutter?", false, "scrolling").mode, AnalysisMode::kFull);
  EXPECT_EQ(ChooseMode("auto", "why does it stutter?", true, "scrolling").mode, AnalysisMode::kQuick);
  EXPECT_EQ(ChooseMode("auto", "how many janky frames are there?", false, "scrolling").mode,
            AnalysisMode::kQuick);
  EXPECT_EQ(ChooseMode("auto", "为什么启动慢", false, "startup").mode, AnalysisMode::kFull);
  EXPECT_EQ(ChooseMode("auto", "有多少个进程", false, "general").mode, AnalysisMode::kQuick);
  EXPECT_EQ(ChooseMode("auto", "cold start is slow", false, "startup").mode, AnalysisMode::kFull);
  EXPECT_EQ(ChooseMode("quick", "why?", false, "anr").mode, AnalysisMode::kQuick);
  EXPECT_EQ(ChooseMode("full", "hello", false, "general").mode, AnalysisMode::kFull);
}

}  // namespace
}  // namespace tw::agent
