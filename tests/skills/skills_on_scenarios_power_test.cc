// The power skills against tracegen's ground truth: who wakes the CPUs from idle and how often
// (cpu_wakeups), idle residency (cpu_idle_residency), time at each frequency (frequency_residency),
// big-core time by process (big_core_time) and the power scene's signal (power_signal) — on the
// scenarios that plant each problem (idle_wakeups, scroll_thermal, scroll_cpu_contention) and
// their clean twins (idle_quiet, scroll_smooth), checked against independent SQL.
#include <string>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;

class PowerSkillsOnScenariosTest : public scenario_testing::SkillsOnScenariosTest {};

TEST_F(PowerSkillsOnScenariosTest, CpuWakeupsNameThePlantedTimerThreadFirst) {
  Scenario& s = Get("idle_wakeups");
  ASSERT_NE(s.trace, nullptr);
  const tracegen::GroundTruth& t = s.truth;
  ASSERT_GT(t.wakeups_planted, 500);
  const SkillRunResult r = Run(s, "cpu_wakeups");
  const StepResult* wakers = Step(r, "wakers");
  ASSERT_TRUE(wakers && !wakers->rows.empty());
  EXPECT_EQ(Str(*wakers, 0, "thread_name"), t.wakeup_thread);
  EXPECT_EQ(Str(*wakers, 0, "process_name"), t.wakeup_process);
  // Every planted wakeup found the CPU idle or busy: at most as many as planted, most of them.
  const int64_t wakeups = Int(*wakers, 0, "wakeups");
  EXPECT_LE(wakeups, t.wakeups_planted);
  EXPECT_GE(wakeups, t.wakeups_planted * 8 / 10);
  // The same count from the raw sched rows: slices that start where an idle slice ended.
  EXPECT_EQ(wakeups, QueryInt(s, "SELECT COUNT(*) FROM sched s JOIN sched i ON i.cpu = s.cpu AND "
                                 "i.ts + i.dur = s.ts AND i.utid = 0 AND i.dur > 0 JOIN thread t ON "
                                 "t.utid = s.utid WHERE t.name = '" + t.wakeup_thread + "'"));
  const auto findings = Findings(r, "frequent_wakeups");
  ASSERT_FALSE(findings.empty());
  EXPECT_NE(findings[0]->title.find(t.wakeup_thread), std::string::npos) << findings[0]->title;
  EXPECT_EQ(findings[0]->cause, "power_wakeups");

  // The idle twin: nothing wakes the CPUs hundreds of times a second.
  const SkillRunResult quiet = Run(Get("idle_quiet"), "cpu_wakeups");
  EXPECT_TRUE(Findings(quiet, "frequent_wakeups").empty());
  const StepResult* quiet_wakers = Step(quiet, "wakers");
  ASSERT_TRUE(quiet_wakers && !quiet_wakers->rows.empty());
  EXPECT_LT(Num(*quiet_wakers, 0, "per_second"), 200);
  EXPECT_EQ(RowWhere(*quiet_wakers, "thread_name", t.wakeup_thread), -1);
}

TEST_F(PowerSkillsOnScenariosTest, IdleResidencyShowsShorterIdleStaysWhenTheTimerRuns) {
  Scenario& busy = Get("idle_wakeups");
  Scenario& quiet = Get("idle_quiet");
  ASSERT_TRUE(busy.trace && quiet.trace);
  const SkillRunResult rb = Run(busy, "cpu_idle_residency");
  const SkillRunResult rq = Run(quiet, "cpu_idle_residency");
  const StepResult* b = Step(rb, "per_cpu");
  const StepResult* q = Step(rq, "per_cpu");
  ASSERT_TRUE(b && q);
  ASSERT_EQ(b->rows.size(), 8u);  // every CPU of the 4+4 device
  ASSERT_EQ(q->rows.size(), 8u);
  int64_t busy_exits = 0, quiet_exits = 0;
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(Int(*b, i, "cpu"), static_cast<int64_t>(i));
    EXPECT_GT(Num(*b, i, "idle_percent"), 0);
    EXPECT_LE(Num(*b, i, "deepest_percent"), Num(*b, i, "idle_percent"));
    busy_exits += Int(*b, i, "idle_entries");
    quiet_exits += Int(*q, i, "idle_entries");
  }
  // The timer's wakeups are extra idle exits: at least half of them show up as such.
  EXPECT_GE(busy_exits - quiet_exits, busy.truth.wakeups_planted / 2)
      << busy_exits << " vs " << quiet_exits;
  EXPECT_EQ(Int(*b, 0, "idle_entries"),
            QueryInt(busy, "SELECT COUNT(*) FROM counter c JOIN cpu_counter_track t ON c.track_id = t.id "
                           "WHERE t.name = 'cpuidle' AND t.cpu = 0 AND c.value != 4294967295"));
  EXPECT_TRUE(Findings(rq, "short_idle_stays").empty());
  EXPECT_TRUE(Findings(rq, "no_idle_data").empty());
}

TEST_F(PowerSkillsOnScenariosTest, FrequencyResidencyShowsTheCappedBigCoresLosingTheirTop) {
  Scenario& s = Get("scroll_thermal");
  ASSERT_NE(s.trace, nullptr);
  const tracegen::GroundTruth& t = s.truth;
  ASSERT_FALSE(t.thermal_capped_cpus.empty());
  const SkillRunResult r = Run(s, "frequency_residency");
  const StepResult* residency = Step(r, "residency");
  const StepResult* per_cpu = Step(r, "per_cpu");
  ASSERT_TRUE(residency && per_cpu);
  const int64_t capped = t.thermal_capped_cpus.front();
  // The capped CPU spent time at exactly the cap, and never above it after the cap.
  bool at_cap = false;
  int64_t total = 0;
  for (size_t i = 0; i < residency->rows.size(); ++i) {
    if (Int(*residency, i, "cpu") != capped) continue;
    total += Int(*residency, i, "time_ns");
    if (Int(*residency, i, "khz") == t.thermal_cap_khz) at_cap = true;
  }
  EXPECT_TRUE(at_cap) << "no time at the cap " << t.thermal_cap_khz << " kHz on CPU " << capped;
  // Each CPU's residency adds up to the time from its first sample to the trace's end.
  EXPECT_EQ(total, QueryInt(s, "SELECT TRACE_END() - MIN(c.ts) FROM counter c JOIN cpu_counter_track t "
                               "ON c.track_id = t.id WHERE t.name = 'cpufreq' AND t.cpu = " +
                                   std::to_string(capped)));
  // Capped from the cap on, the big CPU spends less of the trace at its top than a little one.
  double capped_top = -1, little_top = -1;
  for (size_t i = 0; i < per_cpu->rows.size(); ++i) {
    if (Int(*per_cpu, i, "cpu") == capped) capped_top = Num(*per_cpu, i, "top_percent");
    if (Int(*per_cpu, i, "cpu") == 0) little_top = Num(*per_cpu, i, "top_percent");
  }
  ASSERT_GE(capped_top, 0);
  ASSERT_GE(little_top, 0);
  EXPECT_LT(capped_top, little_top);
}

TEST_F(PowerSkillsOnScenariosTest, BigCoreTimeNamesTheProcessThatFloodsTheBigCores) {
  Scenario& s = Get("scroll_cpu_contention");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "big_core_time");
  const StepResult* processes = Step(r, "processes");
  ASSERT_TRUE(processes && !processes->rows.empty());
  EXPECT_EQ(Str(*processes, 0, "process_name"), "com.google.android.apps.photos");
  EXPECT_EQ(Int(*processes, 0, "big_cpus"), 4);
  EXPECT_EQ(Int(*processes, 0, "big_core_ns"),
            QueryInt(s, "SELECT SUM(s.dur) FROM sched s JOIN thread t USING (utid) JOIN process p "
                        "USING (upid) JOIN cpu c ON c.cpu = s.cpu WHERE p.name = "
                        "'com.google.android.apps.photos' AND c.capacity = (SELECT MAX(capacity) FROM cpu) "
                        "AND s.dur > 0"));
  EXPECT_EQ(Findings(r, "big_core_hog").size(), 1u);
  // On the smooth scroll nobody dominates the big cores.
  EXPECT_TRUE(Findings(Run(Get("scroll_smooth"), "big_core_time"), "big_core_hog").empty());
}

TEST_F(PowerSkillsOnScenariosTest, PowerSignalCountsTheCappedCpusAndTheHottestZone) {
  Scenario& s = Get("scroll_thermal");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult caps = Run(s, "cpu_frequency_caps");
  const StepResult* capped = Step(caps, "caps");
  ASSERT_NE(capped, nullptr);
  EXPECT_EQ(capped->rows.size(), s.truth.thermal_capped_cpus.size());
  std::string json = "[";
  for (size_t i = 0; i < capped->rows.size(); ++i) {
    json += (i ? "," : "") + std::string("{\"capped_khz\":") + std::to_string(Int(*capped, i, "capped_khz")) + "}";
  }
  json += "]";
  const SkillRunResult r = Run(s, "power_signal", {{"caps", json}});
  const StepResult* signal = Step(r, "signal");
  ASSERT_TRUE(signal && signal->rows.size() == 1);
  EXPECT_EQ(Int(*signal, 0, "capped_cpus"), static_cast<int64_t>(s.truth.thermal_capped_cpus.size()));
  EXPECT_EQ(Int(*signal, 0, "capped_khz"), s.truth.thermal_cap_khz);
  EXPECT_EQ(Str(*signal, 0, "hottest_zone"), s.truth.thermal_hottest_zone);
  EXPECT_EQ(static_cast<int64_t>(Num(*signal, 0, "hottest_c")), s.truth.thermal_hottest_c);
  EXPECT_EQ(Int(*signal, 0, "cpus"), 8);
  // The smooth scroll: nothing capped, no zones.
  const SkillRunResult clean = Run(Get("scroll_smooth"), "power_signal");
  EXPECT_EQ(Int(*Step(clean, "signal"), 0, "capped_cpus"), 0);
}

}  // namespace
}  // namespace tw::skills
