#include "libs/strategy/strategy_parser.h"

#include <gtest/gtest.h>

#include "libs/strategy/markdown_document.h"

namespace tw::strategy {
namespace {

constexpr char kValid[] = R"(---
scene: scrolling
priority: 80
keywords: [jank, 卡顿]
patterns: ['\bjank']
plan_aspects: [frame overview]
phases:
  - id: overview
    goal: Count frames.
    critical_skills: [frame_overview]
    mandatory: true
procedure:
  probes:
    - skill: focus_app
  steps:
    - skill: jank_root_causes
      params: {upid: "steps.focus_app.rows[0].upid"}
  drills:
    - id: worst
      skill: frame_detail
      over: jank_root_causes
      where: "row.share_pct >= 15"
      max_items: 2
      params: {frame_id: "row.worst_frame_id"}
      why: Dominant causes get a deep drill.
---
# Body
Guidance.
)";

TEST(MarkdownDocumentTest, SplitsFrontmatterAndBody) {
  auto doc = SplitFrontmatter("---\na: 1\n---\nbody\n");
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->frontmatter, "a: 1\n");
  EXPECT_EQ(doc->body, "body\n");
  EXPECT_EQ(doc->body_first_line, 4);
}

TEST(MarkdownDocumentTest, NoFrontmatterIsAllBody) {
  auto doc = SplitFrontmatter("# just text\n");
  ASSERT_TRUE(doc.ok());
  EXPECT_TRUE(doc->frontmatter.empty());
  EXPECT_EQ(doc->body, "# just text\n");
}

TEST(MarkdownDocumentTest, UnclosedFrontmatterIsAnError) {
  EXPECT_FALSE(SplitFrontmatter("---\na: 1\nno fence\n").ok());
}

TEST(MarkdownDocumentTest, HandlesCrlfAndBom) {
  auto doc = SplitFrontmatter("\xEF\xBB\xBF---\r\na: 1\r\n---\r\nbody");
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->frontmatter, "a: 1\r\n");
  EXPECT_EQ(doc->body, "body");
}

TEST(StrategyParserTest, ParsesEveryField) {
  auto s = ParseStrategy(kValid, "scrolling.strategy.md");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->scene, "scrolling");
  EXPECT_EQ(s->priority, 80);
  EXPECT_EQ(s->keywords, (std::vector<std::string>{"jank", "卡顿"}));
  ASSERT_EQ(s->phases.size(), 1u);
  EXPECT_TRUE(s->phases[0].mandatory);
  EXPECT_EQ(s->phases[0].critical_skills[0], "frame_overview");
  ASSERT_EQ(s->procedure.probes.size(), 1u);
  EXPECT_EQ(s->procedure.probes[0].id, "focus_app");  // id defaults to the skill name
  ASSERT_EQ(s->procedure.steps.size(), 1u);
  EXPECT_EQ(s->procedure.steps[0].params.at("upid"), "steps.focus_app.rows[0].upid");
  EXPECT_EQ(s->procedure.steps[0].line, 16);
  ASSERT_EQ(s->procedure.drills.size(), 1u);
  EXPECT_EQ(s->procedure.drills[0].over, "jank_root_causes");
  EXPECT_EQ(s->procedure.drills[0].max_items, 2);
  EXPECT_EQ(s->procedure.drills[0].line, 19);
  EXPECT_EQ(s->body, "# Body\nGuidance.\n");
}

// Each broken variant must fail with the file and the line of the offending YAML.
struct BrokenCase {
  const char* name;
  const char* text;
  const char* expected;
};

void PrintTo(const BrokenCase& c, std::ostream* os) { *os << c.name; }

class StrategyParserErrorTest : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(StrategyParserErrorTest, ReportsFileLineAndCause) {
  auto s = ParseStrategy(GetParam().text, "x.strategy.md");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.status().message()).find(GetParam().expected), std::string::npos)
      << s.status();
}

INSTANTIATE_TEST_SUITE_P(
    Broken, StrategyParserErrorTest,
    ::testing::Values(
        BrokenCase{"UnknownKey", "---\nscene: a\nkeywords: [a]\nkeywrods: [b]\n---\n",
                   "x.strategy.md:4: unknown key 'keywrods'"},
        BrokenCase{"BadPattern", "---\nscene: a\nkeywords: [a]\npatterns: ['(unclosed']\n---\n",
                   "x.strategy.md:4: invalid pattern"},
        BrokenCase{"NoKeywords", "---\nscene: a\n---\n", "declares no keywords"},
        BrokenCase{"NoScene", "---\nkeywords: [a]\n---\n", "needs a 'scene'"},
        BrokenCase{"BadPriority", "---\nscene: a\nkeywords: [a]\npriority: high\n---\n",
                   ":4: 'priority' must be an integer"},
        BrokenCase{"DrillOverUnknownStep",
                   "---\nscene: a\nkeywords: [a]\nprocedure:\n  drills:\n"
                   "    - {id: d, skill: s, over: nope}\n---\n",
                   ":6: drill 'd' iterates unknown step 'nope'"},
        BrokenCase{"DuplicateStep",
                   "---\nscene: a\nkeywords: [a]\nprocedure:\n  steps:\n    - skill: s\n"
                   "    - skill: s\n---\n",
                   ":7: duplicate procedure id 's'"},
        BrokenCase{"YamlSyntax", "---\nscene: a\nkeywords: [a\n---\n", "x.strategy.md:"},
        BrokenCase{"NoFrontmatter", "# only a body\n", "has no frontmatter"},
        BrokenCase{"MaxItemsRange",
                   "---\nscene: a\nkeywords: [a]\nprocedure:\n  drills:\n"
                   "    - {id: d, skill: s, max_items: 0}\n---\n",
                   "'max_items' must be between 1 and 50"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace tw::strategy
