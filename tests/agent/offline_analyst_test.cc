// The offline analyst end to end on a real (synthetic) trace in a real SQLite-backed database,
// with a small strategy and skills written for the test: procedure order, threshold drills,
// not-supported steps, findings, causal chain, verification and both renderings.
#include "libs/agent/offline_analyst.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "libs/agent/report_render.h"
#include "libs/skills/trace_database_runner.h"
#include "tests/agent/agent_test_env.h"

namespace tw::agent {
namespace {

class OfflineAnalystTest : public ::testing::Test {
 protected:
  AnalysisReport Analyze(const std::string& question) {
    auto& env = agent_test::AgentTestEnv::Get();
    std::vector<skills::Diagnostic> diagnostics;
    skills::SkillLibrary library = skills::SkillLibrary::LoadDirectory(env.skills_dir(), &diagnostics);
    for (const auto& d : diagnostics) ADD_FAILURE() << d.ToString();
    auto strategies = strategy::StrategyLibrary::Load(env.strategies_dir());
    EXPECT_TRUE(strategies.ok()) << strategies.status();
    skills::TraceDatabaseRunner queries(&env.trace().db());
    LocalSkillRunner runner(library, queries);
    verify::LocalVerifierClient verifier;
    OfflineAnalyst analyst(*strategies, runner, &verifier);
    return analyst.Analyze(question, "sched.pftrace");
  }

  static const AnalysisStep* Step(const AnalysisReport& r, const std::string& id) {
    for (const auto& s : r.steps) {
      if (s.id == id) return &s;
    }
    return nullptr;
  }
};

TEST_F(OfflineAnalystTest, RunsTheProcedureWithDrillsAndNotSupportedSteps) {
  AnalysisReport r = Analyze("which threads keep the cpu busy?");
  EXPECT_EQ(r.scene, "cpu");
  EXPECT_EQ(r.scene_matched_by, "keyword");
  EXPECT_TRUE(r.deterministic);
  ASSERT_NE(Step(r, "busiest_threads"), nullptr);
  EXPECT_EQ(Step(r, "busiest_threads")->status, "ok");
  ASSERT_NE(Step(r, "frames_required"), nullptr);
  EXPECT_EQ(Step(r, "frames_required")->status, "not_supported");
  // The drill ran on the two busiest threads only (max_items), with the threshold's reason.
  ASSERT_NE(Step(r, "detail[0]"), nullptr);
  ASSERT_NE(Step(r, "detail[1]"), nullptr);
  EXPECT_EQ(Step(r, "detail[2]"), nullptr);
  EXPECT_EQ(Step(r, "detail[0]")->status, "ok");
  EXPECT_EQ(Step(r, "detail[0]")->why, "The two busiest threads get a state breakdown.");
  // A drill whose parameter reads a column that does not exist fails on its own, precisely.
  const AnalysisStep* broken = Step(r, "broken[0]");
  ASSERT_NE(broken, nullptr);
  EXPECT_EQ(broken->status, "failed");
  EXPECT_NE(broken->message.find("no_such_column"), std::string::npos) << broken->message;

  bool frames_limit = false;
  for (const auto& l : r.limits) frames_limit |= l.find("frames_required") != std::string::npos;
  EXPECT_TRUE(frames_limit);
}

TEST_F(OfflineAnalystTest, RanksFindingsBuildsTheChainAndPassesTheVerifier) {
  AnalysisReport r = Analyze("cpu usage");
  ASSERT_GE(r.findings.size(), 3u);
  EXPECT_EQ(r.findings[0].id, "F1");
  EXPECT_EQ(r.findings[0].severity, FindingSeverity::kCritical);
  EXPECT_EQ(r.findings.back().severity, FindingSeverity::kHigh);
  for (const auto& f : r.findings) {
    ASSERT_EQ(f.evidence.size(), 1u);
    EXPECT_NE(r.FindArtifact(f.evidence[0]), nullptr) << f.title;
  }
  // Symptom (busiest thread) then the drill's finding about it.
  ASSERT_EQ(r.causal_chain.size(), 2u);
  EXPECT_NE(r.causal_chain[0].statement.find("is the busiest"), std::string::npos);
  EXPECT_NE(r.causal_chain[1].statement.find("spends most time"), std::string::npos);
  ASSERT_EQ(r.recommendations.size(), 1u);
  EXPECT_NE(r.recommendations[0].find("Check what thread"), std::string::npos);

  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0].status, "done");
  EXPECT_EQ(r.phases[1].status, "not_supported");
  for (const auto& issue : r.verifier_issues) {
    EXPECT_NE(issue.severity, verify::IssueSeverity::kError) << issue.kind << ": " << issue.message;
  }
  EXPECT_TRUE(r.verified);
}

TEST_F(OfflineAnalystTest, RendersMarkdownAndJson) {
  AnalysisReport r = Analyze("cpu usage");
  const std::string md = RenderMarkdown(r);
  for (const char* section : {"# Tracewise diagnosis", "## Key findings", "## Causal chain",
                              "## Recommendations", "## Evidence", "## What this trace could not answer",
                              "## Method", "## Verification", "deterministic"}) {
    EXPECT_NE(md.find(section), std::string::npos) << section;
  }
  const auto json = nlohmann::json::parse(RenderJson(r));
  EXPECT_EQ(json["scene"], "cpu");
  EXPECT_EQ(json["findings"].size(), r.findings.size());
  ASSERT_FALSE(json["artifacts"].empty());
  const auto& artifact = json["artifacts"][0];
  EXPECT_FALSE(artifact["rows"].empty());
  EXPECT_FALSE(artifact["sql"].get<std::string>().empty());
  EXPECT_TRUE(json["verified"].get<bool>());
}

TEST_F(OfflineAnalystTest, UnmatchedQuestionsFallBackToGeneral) {
  AnalysisReport r = Analyze("tell me something");
  EXPECT_EQ(r.scene, "general");
  EXPECT_EQ(r.scene_matched_by, "fallback");
  ASSERT_FALSE(r.steps.empty());
  EXPECT_EQ(r.steps[0].skill, "busiest_threads");
}

}  // namespace
}  // namespace tw::agent
