#include "libs/agent/answer_parser.h"

#include <gtest/gtest.h>

namespace tw::agent {
namespace {

constexpr char kAnswer[] = R"(Intro line.

## Summary
Scrolling stutters because the main thread waits in binder.

## Findings
- [critical] Main thread blocked in binder — 27 of 412 frames waited 9–31 ms on system_server. (evidence: frame_overview.summary-1a2b, sql-3)
- **[High]** CPU capped: big cores at 1.4 GHz. Evidence: cpu_frequency.freq-77.
- [medium] No evidence here
- not a finding line
* [bogus] Unknown severity — ignored (evidence: x)

## Causal chain
1. 27 janky frames
2. because binder waits of 9–31 ms

## Recommendations
- Move getPackageInfo off the main thread.

## Limits
- No GPU counters in the trace.
)";

TEST(AnswerParserTest, ReadsSectionsFindingsAndEvidence) {
  ParsedAnswer a = ParseAnswer(kAnswer);
  EXPECT_EQ(a.summary, "Scrolling stutters because the main thread waits in binder.");
  ASSERT_EQ(a.findings.size(), 3u);
  EXPECT_EQ(a.findings[0].id, "F1");
  EXPECT_EQ(a.findings[0].severity, FindingSeverity::kCritical);
  EXPECT_EQ(a.findings[0].title, "Main thread blocked in binder");
  EXPECT_EQ(a.findings[0].description, "27 of 412 frames waited 9–31 ms on system_server.");
  EXPECT_EQ(a.findings[0].evidence, (std::vector<std::string>{"frame_overview.summary-1a2b", "sql-3"}));
  EXPECT_EQ(a.findings[1].severity, FindingSeverity::kHigh);
  EXPECT_EQ(a.findings[1].title, "CPU capped");
  EXPECT_EQ(a.findings[1].evidence, std::vector<std::string>{"cpu_frequency.freq-77"});
  EXPECT_TRUE(a.findings[2].evidence.empty());
  ASSERT_EQ(a.causal_chain.size(), 2u);
  EXPECT_EQ(a.causal_chain[1].statement, "because binder waits of 9–31 ms");
  EXPECT_EQ(a.recommendations.size(), 1u);
  EXPECT_EQ(a.limits, std::vector<std::string>{"No GPU counters in the trace."});
}

TEST(AnswerParserTest, UnstructuredAnswersKeepTheirTextAsSummary) {
  ParsedAnswer a = ParseAnswer("There are 12 processes in this trace.");
  EXPECT_EQ(a.summary, "There are 12 processes in this trace.");
  EXPECT_TRUE(a.findings.empty());
}

}  // namespace
}  // namespace tw::agent
