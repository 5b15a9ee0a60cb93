#include "libs/agent/analysis_plan.h"

#include <gtest/gtest.h>

#include "libs/agent/hypotheses.h"

namespace tw::agent {
namespace {

strategy::Strategy Scrolling() {
  strategy::Strategy s;
  s.scene = "scrolling";
  s.plan_aspects = {"frame overview (how many frames, how many janky)",
                    "per-frame deep drill on the worst janky frames",
                    "CPU placement and frequency during janky frames"};
  s.phases = {{"overview", "", {}, true}, {"deep_drill", "", {}, true}, {"extra", "", {}, false}};
  return s;
}

PlanSubmission GoodPlan() {
  PlanSubmission p;
  p.phases = {{"overview", "Count frames and janky frames", {"frame_overview"}},
              {"deep_drill", "Per-frame drill of the worst janky frames", {"frame_detail"}},
              {"cpu", "CPU placement and frequency while frames were janky", {"cpu_frequency"}}};
  return p;
}

TEST(AnalysisPlanTest, AcceptsAPlanThatCoversAspectsInItsOwnWords) {
  AnalysisPlan plan;
  EXPECT_FALSE(plan.present());
  PlanDecision d = plan.Submit(GoodPlan(), Scrolling());
  EXPECT_TRUE(d.accepted) << d.message;
  EXPECT_TRUE(plan.present());
  EXPECT_EQ(plan.phases().size(), 3u);
}

TEST(AnalysisPlanTest, RejectionNamesMissingAspectsAndPhases) {
  AnalysisPlan plan;
  PlanSubmission p = GoodPlan();
  p.phases.pop_back();  // no CPU phase
  p.phases[1].id = "drill";
  PlanDecision d = plan.Submit(p, Scrolling());
  EXPECT_FALSE(d.accepted);
  EXPECT_FALSE(plan.present());
  ASSERT_EQ(d.missing_aspects.size(), 1u);
  EXPECT_EQ(d.missing_aspects[0], "CPU placement and frequency during janky frames");
  EXPECT_EQ(d.missing_phases, std::vector<std::string>{"deep_drill"});
  EXPECT_NE(d.message.find("CPU placement"), std::string::npos);
  EXPECT_NE(d.message.find("deep_drill"), std::string::npos);
}

TEST(AnalysisPlanTest, RevisionsKeepDonePhasesAndNeedAReason) {
  AnalysisPlan plan;
  ASSERT_TRUE(plan.Submit(GoodPlan(), Scrolling()).accepted);
  EXPECT_TRUE(plan.UpdatePhase("overview", "done", "38 of 412 janky").accepted);
  EXPECT_FALSE(plan.UpdatePhase("overview", "finished", "").accepted);
  EXPECT_FALSE(plan.UpdatePhase("nope", "done", "").accepted);
  EXPECT_FALSE(plan.Submit(GoodPlan(), Scrolling()).accepted);  // no reason given
  PlanSubmission revised = GoodPlan();
  revised.phases.push_back({"binder", "Follow binder waits to the server", {}});
  PlanDecision d = plan.Submit(revised, Scrolling(), "binder dominates the janky frames");
  EXPECT_TRUE(d.accepted) << d.message;
  EXPECT_EQ(plan.revisions(), 1);
  EXPECT_EQ(plan.phases()[0].status, "done");
  EXPECT_EQ(plan.phases()[0].summary, "38 of 412 janky");
  EXPECT_NE(plan.Describe().find("binder dominates"), std::string::npos);
}

TEST(HypothesisBoardTest, ResolutionNeedsExistingEvidence) {
  HypothesisBoard board;
  const std::string id = board.Submit("Binder calls block the main thread");
  EXPECT_EQ(id, "H1");
  EXPECT_EQ(board.open_count(), 1);
  auto exists = [](const std::string& a) { return a == "art-1"; };
  EXPECT_NE(board.Resolve(id, "confirmed", {}, "", exists), "");
  EXPECT_NE(board.Resolve(id, "confirmed", {"art-9"}, "", exists).find("art-9"), std::string::npos);
  EXPECT_NE(board.Resolve(id, "maybe", {"art-1"}, "", exists), "");
  EXPECT_NE(board.Resolve("H7", "confirmed", {"art-1"}, "", exists), "");
  EXPECT_EQ(board.Resolve(id, "confirmed", {"art-1"}, "27 ms waits", exists), "");
  EXPECT_EQ(board.open_count(), 0);
  EXPECT_NE(board.Describe().find("[confirmed]"), std::string::npos);
}

}  // namespace
}  // namespace tw::agent
