// The IPC skills against tracegen's ground truth: oneway floods (binder_oneway_flood) on the
// idle_wakeups scenario's notifier, and the server side of slow synchronous calls — the binder
// thread pool (binder_thread_pool) and what the server threads did while serving
// (binder_server_states) — on scroll_binder_jank, checked against the injected calls.
#include <string>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;

class IpcSkillsOnScenariosTest : public scenario_testing::SkillsOnScenariosTest {};

TEST_F(IpcSkillsOnScenariosTest, OnewayFloodCountsThePlantedCallsAndNothingOnTheQuietTwin) {
  Scenario& s = Get("idle_wakeups");
  ASSERT_NE(s.trace, nullptr);
  const tracegen::GroundTruth& t = s.truth;
  ASSERT_GT(t.oneway_calls, 300);
  const SkillRunResult r = Run(s, "binder_oneway_flood");
  const StepResult* flows = Step(r, "flows");
  ASSERT_TRUE(flows && !flows->rows.empty());
  EXPECT_EQ(Str(*flows, 0, "client_process"), t.wakeup_process);
  EXPECT_EQ(Str(*flows, 0, "server_process"), "system_server");
  EXPECT_EQ(Str(*flows, 0, "method"), t.oneway_method);
  EXPECT_EQ(Int(*flows, 0, "calls"), t.oneway_calls);
  EXPECT_NEAR(Num(*flows, 0, "per_second"), t.oneway_calls / t.duration_s, 1.0);
  const auto flood = Findings(r, "flood");
  ASSERT_EQ(flood.size(), 1u);
  EXPECT_EQ(flood[0]->cause, "binder_flood");

  // The quiet twin makes no binder calls at all: the skill says so rather than report nothing.
  const SkillRunResult quiet = RunAny(Get("idle_quiet"), "binder_oneway_flood");
  EXPECT_EQ(quiet.outcome, SkillOutcome::kNotSupported) << quiet.message;
  EXPECT_TRUE(Findings(quiet, "flood").empty());
}

TEST_F(IpcSkillsOnScenariosTest, ThreadPoolAndServerStatesFollowTheSlowCallsToSystemServer) {
  Scenario& s = Get("scroll_binder_jank");
  ASSERT_NE(s.trace, nullptr);
  const tracegen::GroundTruth& t = s.truth;
  ASSERT_GE(t.injected_binder.size(), 3u);
  // The pool: system_server's binder threads served the app's calls, one at a time (no call
  // waited for a free thread), so the pool is not exhausted.
  const SkillRunResult pool = Run(s, "binder_thread_pool");
  const StepResult* pools = Step(pool, "pools");
  ASSERT_NE(pools, nullptr);
  const int ss = RowWhere(*pools, "server_process", "system_server");
  ASSERT_GE(ss, 0);
  EXPECT_GE(Int(*pools, ss, "calls"), static_cast<int64_t>(t.injected_binder.size()));
  EXPECT_EQ(Int(*pools, ss, "binder_threads"),
            QueryInt(s, "SELECT COUNT(*) FROM thread t JOIN process p USING (upid) WHERE p.pid = " +
                            std::to_string(t.system_server_pid) + " AND t.name GLOB 'binder:*'"));
  EXPECT_EQ(Int(*pools, ss, "delayed_calls"), 0);
  EXPECT_TRUE(Findings(pool, "exhausted").empty());

  // The server threads ran (the planted work is CPU work): no blocked or runnable verdict.
  const SkillRunResult states = Run(s, "binder_server_states");
  const StepResult* rows = Step(states, "states");
  ASSERT_TRUE(rows && !rows->rows.empty());
  const int call = RowWhere(*rows, "method", t.injected_binder.front().aidl);
  ASSERT_GE(call, 0);
  EXPECT_EQ(Str(*rows, call, "server_process"), "system_server");
  EXPECT_GE(Num(*rows, call, "running_pct"), 85);
  int64_t planted = 0;
  for (const auto& b : t.injected_binder) planted += b.dur;
  // Serving time is the server side of the planted calls: within the client's blocked time.
  EXPECT_LE(Int(*rows, call, "serving_ns"), planted);
  EXPECT_GE(Int(*rows, call, "serving_ns"), planted * 8 / 10);
  EXPECT_TRUE(Findings(states, "server_blocked").empty());
}

}  // namespace
}  // namespace tw::skills
