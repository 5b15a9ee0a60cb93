// The memory skills against tracegen's ground truth: the GC-pressure scenario's collections
// and the main thread's waits for them (gc_events), and the app's resident memory growing with
// its heap in the process_stats polls (memory_trend), while every other process stays steady.
#include <cstdlib>
#include <string>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;

class MemorySkillsOnScenariosTest : public scenario_testing::SkillsOnScenariosTest {};

TEST_F(MemorySkillsOnScenariosTest, GcEventsCountTheCollectionsAndTheMainThreadsWaits) {
  Scenario& s = Get("scroll_gc_pressure");
  ASSERT_NE(s.trace, nullptr);
  ASSERT_GE(s.truth.gc_events, 3);
  const SkillRunResult r = Run(s, "gc_events");
  const StepResult* per_process = Step(r, "per_process");
  ASSERT_TRUE(per_process && per_process->rows.size() == 1);  // only the app collects
  EXPECT_EQ(Int(*per_process, 0, "upid"), s.app_upid);
  EXPECT_EQ(Int(*per_process, 0, "gc_count"), s.truth.gc_events);
  const std::string gc_slices =
      " FROM slice s JOIN thread_track tt ON s.track_id = tt.id JOIN thread t USING (utid) "
      "WHERE t.upid = " + std::to_string(s.app_upid) +
      " AND t.name = 'HeapTaskDaemon' AND s.name = 'young concurrent copying GC'";
  EXPECT_EQ(QueryInt(s, "SELECT COUNT(*)" + gc_slices), s.truth.gc_events);
  EXPECT_EQ(Int(*per_process, 0, "gc_dur"), QueryInt(s, "SELECT SUM(dur)" + gc_slices));
  EXPECT_EQ(Int(*per_process, 0, "max_gc_dur"), QueryInt(s, "SELECT MAX(dur)" + gc_slices));
  // Only the main thread waited, once per collection.
  const std::string waits = " FROM slice s JOIN thread_track tt ON s.track_id = tt.id WHERE tt.utid = " +
                            std::to_string(s.app_main_utid) + " AND s.name = 'WaitForGcToComplete'";
  EXPECT_EQ(QueryInt(s, "SELECT COUNT(*)" + waits), s.truth.gc_events);
  EXPECT_EQ(Int(*per_process, 0, "main_thread_wait_dur"), QueryInt(s, "SELECT SUM(dur)" + waits));
  EXPECT_EQ(Int(*per_process, 0, "wait_dur"), Int(*per_process, 0, "main_thread_wait_dur"));
  EXPECT_EQ(Findings(r, "main_waits").size(), 1u);

  // No collections, no rows.
  EXPECT_TRUE(Step(Run(Get("scroll_smooth"), "gc_events"), "per_process")->rows.empty());
}

TEST_F(MemorySkillsOnScenariosTest, MemoryTrendShowsTheAppGrowingAndTheRestSteady) {
  Scenario& s = Get("scroll_gc_pressure");
  ASSERT_NE(s.trace, nullptr);
  const tracegen::GroundTruth& t = s.truth;
  ASSERT_GT(t.memory_polls, 3);
  // The scenario is built to leak past the skill's threshold (50 MB and 20 %).
  const int64_t growth = t.app_rss_last_bytes - t.app_rss_first_bytes;
  ASSERT_GE(growth, 50'000'000);
  ASSERT_GE(static_cast<double>(growth), 0.2 * static_cast<double>(t.app_rss_first_bytes));

  const SkillRunResult r = Run(s, "memory_trend", {{"limit", "100"}});
  const StepResult* rss = Step(r, "rss");
  ASSERT_NE(rss, nullptr);
  ASSERT_GT(rss->rows.size(), 3u);  // every polled process
  bool app_seen = false;
  for (size_t i = 0; i < rss->rows.size(); ++i) {
    EXPECT_EQ(Int(*rss, i, "samples"), t.memory_polls) << Str(*rss, i, "process_name");
    if (Int(*rss, i, "pid") != t.app_pid) {
      // The other processes only wobble by a few hundred kB.
      EXPECT_LT(std::llabs(Int(*rss, i, "rss_growth")), 1'000'000) << Str(*rss, i, "process_name");
      continue;
    }
    app_seen = true;
    EXPECT_EQ(Int(*rss, i, "first_rss"), t.app_rss_first_bytes);
    EXPECT_EQ(Int(*rss, i, "last_rss"), t.app_rss_last_bytes);
    EXPECT_EQ(Int(*rss, i, "peak_rss"), t.app_rss_peak_bytes);
    EXPECT_EQ(Int(*rss, i, "rss_growth"), growth);
  }
  EXPECT_TRUE(app_seen);
  const auto grew = Findings(r, "growth");
  ASSERT_EQ(grew.size(), 1u);
  for (const auto& [k, v] : grew[0]->evidence_fields) {
    if (k == "process_name") {
      EXPECT_EQ(v.string_value, t.app_package);
    }
  }

  // A trace without process memory counters cannot support the skill, and says precisely why.
  const SkillRunResult none = RunAny(Get("scroll_smooth"), "memory_trend");
  EXPECT_EQ(none.outcome, SkillOutcome::kNotSupported);
  EXPECT_EQ(none.message,
            "not supported by this trace: skill 'memory_trend' needs data in process_counter_track, "
            "which is empty in this trace");
}

TEST_F(MemorySkillsOnScenariosTest, MemoryPressureSkillsCountTheKillsReclaimsAndKswapd) {
  Scenario& s = Get("memory_pressure");
  ASSERT_NE(s.trace, nullptr);
  const tracegen::GroundTruth& t = s.truth;
  ASSERT_EQ(t.lmk_victims.size(), 3u);
  ASSERT_GT(t.direct_reclaims, 2);
  // lmk_kills: the victims, in the order lmkd killed them.
  const SkillRunResult kills = Run(s, "lmk_kills");
  const StepResult* k = Step(kills, "kills");
  ASSERT_TRUE(k && k->rows.size() == t.lmk_victims.size());
  for (size_t i = 0; i < t.lmk_victims.size(); ++i) EXPECT_EQ(Str(*k, i, "process_name"), t.lmk_victims[i]);
  ASSERT_EQ(Findings(kills, "kills").size(), 1u);
  EXPECT_EQ(Findings(kills, "kills")[0]->cause, "lmk");
  // direct_reclaim: only the app's main thread, once per planted reclaim; the reclaim took at
  // least the planted work (it ran at whatever clock the CPU had).
  const SkillRunResult reclaim = Run(s, "direct_reclaim");
  const StepResult* rc = Step(reclaim, "reclaims");
  ASSERT_TRUE(rc && rc->rows.size() == 1);
  EXPECT_EQ(Int(*rc, 0, "tid"), t.app_main_tid);
  EXPECT_EQ(Int(*rc, 0, "is_main_thread"), 1);
  EXPECT_EQ(Int(*rc, 0, "reclaims"), t.direct_reclaims);
  EXPECT_GE(Int(*rc, 0, "total_dur"), t.direct_reclaim_ns);
  ASSERT_EQ(Findings(reclaim, "main_thread_reclaim").size(), 1u);
  // kswapd_activity: kswapd0's CPU time is its sched time.
  const SkillRunResult kswapd = Run(s, "kswapd_activity");
  const StepResult* kw = Step(kswapd, "kswapd");
  ASSERT_TRUE(kw && kw->rows.size() == 1);
  EXPECT_EQ(Str(*kw, 0, "thread_name"), "kswapd0");
  EXPECT_EQ(Int(*kw, 0, "cpu_ns"), QueryInt(s, "SELECT SUM(s.dur) FROM sched s JOIN thread t USING (utid) "
                                               "WHERE t.name = 'kswapd0' AND s.dur > 0"));
  EXPECT_EQ(Findings(kswapd, "busy").size(), 1u);

  // The steady twin: no kills, no reclaim on app threads, kswapd not busy.
  Scenario& steady = Get("memory_steady");
  EXPECT_TRUE(Step(Run(steady, "lmk_kills"), "kills")->rows.empty());
  EXPECT_TRUE(Step(Run(steady, "direct_reclaim"), "reclaims")->rows.empty());
  EXPECT_TRUE(Findings(Run(steady, "kswapd_activity"), "busy").empty());
}

}  // namespace
}  // namespace tw::skills
