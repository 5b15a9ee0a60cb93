// The CPU skills against tracegen's ground truth and the simulation's rules: the UI threads may
// only run on the big cores (cpu_placement); in the CPU-contention window the hog threads lead
// (cpu_top_threads) and the main thread waits Runnable as long as the simulation measured
// (runnable_latency, thread_state_breakdown, which also agrees with the thread_state table);
// the slow-I/O startup's injected reads are the main thread's D state (io_waits); the thermal
// zones and the cap are where the thermal scenario put them (thermal_throttling).
#include <cstdlib>
#include <set>
#include <string>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;

class CpuSkillsOnScenariosTest : public scenario_testing::SkillsOnScenariosTest {
 protected:
  static std::map<std::string, std::string> Window(const Scenario& s) {
    return {{"start_ts", std::to_string(s.truth.cpu_contention_from_ns)},
            {"end_ts", std::to_string(s.truth.cpu_contention_to_ns)}};
  }
};

TEST_F(CpuSkillsOnScenariosTest, CpuPlacementKeepsTheUiThreadsOnTheBigCores) {
  Scenario& s = Get("scroll_smooth");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "cpu_placement", App(s));
  // The device model: CPUs 0-3 little, 4-7 big.
  const StepResult* per_cpu = Step(r, "per_thread_cpu");
  ASSERT_TRUE(per_cpu && !per_cpu->rows.empty());
  for (size_t i = 0; i < per_cpu->rows.size(); ++i) {
    EXPECT_EQ(Str(*per_cpu, i, "core_class"), Int(*per_cpu, i, "cpu") >= 4 ? "big" : "little")
        << "cpu " << Int(*per_cpu, i, "cpu");
  }
  const StepResult* per_class = Step(r, "per_class");
  ASSERT_NE(per_class, nullptr);
  int ui_threads = 0;
  for (size_t i = 0; i < per_class->rows.size(); ++i) {
    const bool main = Int(*per_class, i, "is_main_thread") == 1;
    if (!main && Str(*per_class, i, "thread_name") != "RenderThread") continue;
    ++ui_threads;
    EXPECT_EQ(Num(*per_class, i, "big_pct"), 100.0) << Str(*per_class, i, "thread_name");
    EXPECT_EQ(Int(*per_class, i, "run_ns"),
              QueryInt(s, "SELECT SUM(dur) FROM sched WHERE dur > 0 AND utid = " +
                              std::to_string(Int(*per_class, i, "utid"))));
  }
  EXPECT_EQ(ui_threads, 2);
  EXPECT_TRUE(Findings(r, "little_main").empty());
}

TEST_F(CpuSkillsOnScenariosTest, CpuTopThreadsInTheContentionWindowAreTheHogs) {
  Scenario& s = Get("scroll_cpu_contention");
  ASSERT_NE(s.trace, nullptr);
  ASSERT_GT(s.truth.cpu_hog_threads, 0);
  auto params = Window(s);
  params["limit"] = std::to_string(s.truth.cpu_hog_threads);
  const SkillRunResult r = Run(s, "cpu_top_threads", params);
  const StepResult* top = Step(r, "top");
  ASSERT_NE(top, nullptr);
  ASSERT_EQ(static_cast<int64_t>(top->rows.size()), s.truth.cpu_hog_threads);
  std::set<std::string> hogs;
  for (size_t i = 0; i < top->rows.size(); ++i) {
    EXPECT_EQ(Str(*top, i, "process_name"), s.truth.cpu_hog_process);
    hogs.insert(Str(*top, i, "thread_name"));
    EXPECT_EQ(Num(*top, i, "big_core_pct"), 100.0);  // they were pinned to the big cluster
    if (i > 0) {
      EXPECT_LE(Int(*top, i, "cpu_time_ns"), Int(*top, i - 1, "cpu_time_ns"));
    }
  }
  EXPECT_EQ(static_cast<int64_t>(hogs.size()), s.truth.cpu_hog_threads);

  // Over the whole trace, the top thread's time is what sched says.
  const SkillRunResult whole = Run(s, "cpu_top_threads", {{"limit", "3"}});
  const StepResult* t = Step(whole, "top");
  ASSERT_TRUE(t && t->rows.size() == 3);
  EXPECT_EQ(Int(*t, 0, "cpu_time_ns"),
            QueryInt(s, "SELECT SUM(dur) FROM sched WHERE dur > 0 AND utid = " + std::to_string(Int(*t, 0, "utid"))));
}

TEST_F(CpuSkillsOnScenariosTest, RunnableLatencyIsTheMainThreadsMeasuredWait) {
  Scenario& s = Get("scroll_cpu_contention");
  ASSERT_NE(s.trace, nullptr);
  ASSERT_GT(s.truth.main_thread_runnable_ns, 10'000'000);
  auto params = Window(s);
  params["upid"] = std::to_string(s.app_upid);
  const SkillRunResult r = Run(s, "runnable_latency", params);
  const StepResult* waits = Step(r, "waits");
  ASSERT_TRUE(waits && !waits->rows.empty());
  EXPECT_EQ(Int(*waits, 0, "tid"), s.truth.app_main_tid);
  EXPECT_EQ(Int(*waits, 0, "is_main_thread"), 1);
  // The simulation's own account of the wait, up to the few ns each event's timestamp adds.
  EXPECT_NEAR(static_cast<double>(Int(*waits, 0, "runnable_ns")),
              static_cast<double>(s.truth.main_thread_runnable_ns), 100'000.0);
  bool main_flagged = false;
  for (const Finding* f : Findings(r, "long_waits")) {
    for (const auto& [k, v] : f->evidence_fields) main_flagged |= k == "utid" && v.int_value == s.app_main_utid;
  }
  EXPECT_TRUE(main_flagged);

  // Without the hogs, the same window costs the main thread a fraction of that.
  Scenario& smooth = Get("scroll_smooth");
  auto smooth_params = Window(s);
  smooth_params["upid"] = std::to_string(smooth.app_upid);
  const SkillRunResult calm = Run(smooth, "runnable_latency", smooth_params);
  const StepResult* calm_waits = Step(calm, "waits");
  ASSERT_NE(calm_waits, nullptr);
  for (size_t i = 0; i < calm_waits->rows.size(); ++i) {
    if (Int(*calm_waits, i, "is_main_thread") != 1) continue;
    EXPECT_LT(Int(*calm_waits, i, "runnable_ns"), s.truth.main_thread_runnable_ns / 5);
  }
}

TEST_F(CpuSkillsOnScenariosTest, ThreadStateBreakdownAgreesWithTheThreadStateTable) {
  Scenario& s = Get("scroll_cpu_contention");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "thread_state_breakdown", App(s));
  const StepResult* thread = Step(r, "thread");
  ASSERT_TRUE(thread && thread->rows.size() == 1);
  EXPECT_EQ(Int(*thread, 0, "tid"), s.truth.app_main_tid);
  const StepResult* states = Step(r, "states");
  ASSERT_TRUE(states && !states->rows.empty());
  const std::string utid = std::to_string(s.app_main_utid);
  const std::map<std::string, std::string>& kStateSql = scenario_testing::ThreadStateSqlByLabel();
  double pct = 0;
  for (size_t i = 0; i < states->rows.size(); ++i) {
    const std::string state = Str(*states, i, "state");
    pct += Num(*states, i, "pct");
    ASSERT_TRUE(kStateSql.count(state)) << state;
    EXPECT_EQ(Int(*states, i, "dur"),
              QueryInt(s, "SELECT SUM(dur) FROM thread_state WHERE dur > 0 AND utid = " + utid +
                              " AND " + kStateSql.at(state)))
        << state;
  }
  EXPECT_NEAR(pct, 100.0, 0.1);
  const int running = RowWhere(*states, "state", "Running");
  ASSERT_GE(running, 0);
  EXPECT_EQ(Int(*states, static_cast<size_t>(running), "dur"),
            QueryInt(s, "SELECT SUM(dur) FROM sched WHERE dur > 0 AND utid = " + utid));

  // Within the contention window the main thread is Runnable for a large share of the time.
  auto params = Window(s);
  params["upid"] = std::to_string(s.app_upid);
  const SkillRunResult window = Run(s, "thread_state_breakdown", params);
  const StepResult* in_window = Step(window, "states");
  ASSERT_NE(in_window, nullptr);
  EXPECT_EQ(Sum(*in_window, "dur"), s.truth.cpu_contention_to_ns - s.truth.cpu_contention_from_ns);
  EXPECT_EQ(Findings(window, "runnable_heavy").size(), 1u);
}

TEST_F(CpuSkillsOnScenariosTest, IoWaitsAreTheInjectedReadsOfTheMainThread) {
  Scenario& s = Get("startup_cold_slow_io");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "io_waits", App(s));
  const StepResult* per_thread = Step(r, "per_thread");
  ASSERT_TRUE(per_thread && !per_thread->rows.empty());
  EXPECT_EQ(Int(*per_thread, 0, "utid"), s.app_main_utid);
  EXPECT_EQ(Int(*per_thread, 0, "is_main_thread"), 1);
  EXPECT_EQ(Int(*per_thread, 0, "waits"), 6);  // the scenario's six slow class-file reads
  EXPECT_NEAR(static_cast<double>(Int(*per_thread, 0, "d_dur")),
              static_cast<double>(s.truth.startup_main_thread_d_state_ns), 10'000.0);
  EXPECT_EQ(Int(*per_thread, 0, "io_dur"), Int(*per_thread, 0, "d_dur"));  // all of it I/O
  EXPECT_EQ(Findings(r, "main_thread_io").size(), 1u);

  // The plain cold start reads once, for 2 ms: no finding.
  Scenario& cold = Get("startup_cold");
  const SkillRunResult quick = Run(cold, "io_waits", App(cold));
  const StepResult* q = Step(quick, "per_thread");
  ASSERT_TRUE(q && !q->rows.empty());
  EXPECT_EQ(Int(*q, 0, "utid"), cold.app_main_utid);
  EXPECT_NEAR(static_cast<double>(Int(*q, 0, "d_dur")),
              static_cast<double>(cold.truth.startup_main_thread_d_state_ns), 10'000.0);
  EXPECT_TRUE(Findings(quick, "main_thread_io").empty());
}

TEST_F(CpuSkillsOnScenariosTest, ThermalThrottlingSeesTheZonesAndTheCap) {
  Scenario& s = Get("scroll_thermal");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "thermal_throttling");
  const StepResult* zones = Step(r, "zones");
  ASSERT_TRUE(zones && zones->rows.size() == 2);
  EXPECT_EQ(Str(*zones, 0, "counter"), s.truth.thermal_hottest_zone);
  EXPECT_EQ(Num(*zones, 0, "max_value"), static_cast<double>(s.truth.thermal_hottest_c));
  for (size_t i = 0; i < zones->rows.size(); ++i) {
    EXPECT_EQ(Int(*zones, i, "samples"), s.truth.thermal_samples_per_zone);
  }
  EXPECT_TRUE(Findings(r, "no_thermal").empty());

  // The capped CPUs' ceiling falls to the cap in the second half; the others keep (about) theirs.
  const std::set<uint32_t> capped(s.truth.thermal_capped_cpus.begin(), s.truth.thermal_capped_cpus.end());
  const StepResult* ceiling = Step(r, "cpu_ceiling");
  ASSERT_TRUE(ceiling && ceiling->rows.size() == 8);
  for (size_t i = 0; i < ceiling->rows.size(); ++i) {
    const int64_t cpu = Int(*ceiling, i, "cpu");
    if (capped.count(static_cast<uint32_t>(cpu))) {
      EXPECT_EQ(Int(*ceiling, i, "second_half_max_khz"), s.truth.thermal_cap_khz) << cpu;
      EXPECT_GT(Int(*ceiling, i, "first_half_max_khz"), s.truth.thermal_cap_khz) << cpu;
    } else {
      EXPECT_GE(Num(*ceiling, i, "second_half_max_khz"), 0.8 * Num(*ceiling, i, "first_half_max_khz")) << cpu;
    }
  }
  std::set<uint32_t> flagged;
  for (const Finding* f : Findings(r, "ceiling_drop")) {
    for (const auto& [k, v] : f->evidence_fields) {
      if (k == "cpu") flagged.insert(static_cast<uint32_t>(v.int_value));
    }
  }
  EXPECT_EQ(flagged, capped);

  // No zones and no drop where nothing was throttled.
  const SkillRunResult smooth = Run(Get("scroll_smooth"), "thermal_throttling");
  EXPECT_EQ(Findings(smooth, "no_thermal").size(), 1u);
  EXPECT_TRUE(Findings(smooth, "ceiling_drop").empty());
}

TEST_F(CpuSkillsOnScenariosTest, RunnableCulpritsAreTheHogThreadsAndCapsAreTheCappedCpus) {
  Scenario& s = Get("scroll_cpu_contention");
  ASSERT_NE(s.trace, nullptr);
  const tracegen::GroundTruth& t = s.truth;
  ASSERT_GT(t.cpu_hog_threads, 0);
  const SkillRunResult r = Run(s, "runnable_culprits", App(s));
  const StepResult* threads = Step(r, "threads");
  ASSERT_TRUE(threads && static_cast<int>(threads->rows.size()) >= t.cpu_hog_threads);
  // The hog's threads ran while the UI threads waited, ahead of everyone else.
  for (int i = 0; i < t.cpu_hog_threads; ++i) EXPECT_EQ(Str(*threads, i, "process_name"), t.cpu_hog_process) << i;
  const StepResult* processes = Step(r, "processes");
  ASSERT_TRUE(processes && !processes->rows.empty());
  EXPECT_EQ(Str(*processes, 0, "process_name"), t.cpu_hog_process);
  const auto culprit = Findings(r, "culprit");
  ASSERT_FALSE(culprit.empty());
  EXPECT_NE(culprit[0]->title.find(t.cpu_hog_process), std::string::npos) << culprit[0]->title;
  EXPECT_EQ(culprit[0]->cause, "cpu_runnable");

  // cpu_frequency_caps: the thermal scenario's capped CPUs at the cap, none on the smooth scroll.
  Scenario& thermal = Get("scroll_thermal");
  const SkillRunResult caps = Run(thermal, "cpu_frequency_caps");
  const StepResult* c = Step(caps, "caps");
  ASSERT_TRUE(c && c->rows.size() == thermal.truth.thermal_capped_cpus.size());
  for (size_t i = 0; i < c->rows.size(); ++i) {
    EXPECT_EQ(Int(*c, i, "cpu"), thermal.truth.thermal_capped_cpus[i]);
    EXPECT_EQ(Int(*c, i, "capped_khz"), thermal.truth.thermal_cap_khz);
  }
  EXPECT_TRUE(Step(Run(Get("scroll_smooth"), "cpu_frequency_caps"), "caps")->rows.empty());
}

}  // namespace
}  // namespace tw::skills
