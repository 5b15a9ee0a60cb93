// The overview skills against tracegen's ground truth: what the trace holds (trace_overview),
// which app it is about (focus_app), how that app draws (rendering_architecture) and the
// display's refresh rate (refresh_rate), in scenarios that differ in exactly those facts.
#include <cmath>
#include <string>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;

class OverviewSkillsOnScenariosTest : public scenario_testing::SkillsOnScenariosTest {
 protected:
  // capability -> row_count, supported.
  struct Capability {
    int64_t rows = -1;
    bool supported = false;
  };
  std::map<std::string, Capability> Capabilities(Scenario& s) {
    std::map<std::string, Capability> out;
    const SkillRunResult r = Run(s, "trace_overview");
    const StepResult* caps = Step(r, "capabilities");
    if (!caps) return out;
    for (size_t i = 0; i < caps->rows.size(); ++i) {
      out[Str(*caps, i, "capability")] = {Int(*caps, i, "row_count"), Int(*caps, i, "supported") == 1};
    }
    return out;
  }
};

TEST_F(OverviewSkillsOnScenariosTest, TraceOverviewStatesTheBoundsAndWhatEachScenarioRecorded) {
  Scenario& smooth = Get("scroll_smooth");
  ASSERT_NE(smooth.trace, nullptr);
  const SkillRunResult r = Run(smooth, "trace_overview");
  const StepResult* bounds = Step(r, "bounds");
  ASSERT_TRUE(bounds && bounds->rows.size() == 1);
  // The simulated device's time span and its 8 CPUs.
  EXPECT_LE(std::llabs(Int(*bounds, 0, "start_ts") - smooth.truth.trace_start_ns), 5'000'000);
  EXPECT_LE(std::llabs(Int(*bounds, 0, "end_ts") - smooth.truth.trace_end_ns), 5'000'000);
  EXPECT_EQ(Int(*bounds, 0, "cpus_with_sched"), 8);

  auto caps = Capabilities(smooth);
  for (const char* present : {"sched", "thread_state", "slices", "frames", "binder", "cpu_frequency", "cpu_idle"}) {
    EXPECT_TRUE(caps[present].supported) << present;
  }
  // A scroll records no GPU, thermal or memory data and, without GC or launches, no logcat.
  for (const char* absent : {"gpu", "thermal", "memory", "logs"}) {
    EXPECT_FALSE(caps[absent].supported) << absent;
    EXPECT_EQ(caps[absent].rows, 0) << absent;
  }
  // Every transaction the simulation made is a transaction slice; sync ones add a reply slice.
  const int64_t replies = QueryInt(smooth, "SELECT COUNT(*) FROM slice WHERE name = 'binder reply'");
  EXPECT_EQ(caps["binder"].rows - replies, smooth.truth.binder_transactions_total);
  // The app's frames are among the frame timeline's rows (with SurfaceFlinger's own).
  EXPECT_GE(caps["frames"].rows, smooth.truth.frames_total);
  for (const Finding& f : r.findings) {
    EXPECT_NE(f.rule, "no_frames") << f.title;
  }

  // The GC scenario polls process memory and logs its collections; the thermal one polls two
  // thermal zones; the ANR has no frames at all.
  auto gc = Capabilities(Get("scroll_gc_pressure"));
  EXPECT_TRUE(gc["memory"].supported);
  EXPECT_TRUE(gc["logs"].supported);
  auto thermal = Capabilities(Get("scroll_thermal"));
  EXPECT_EQ(thermal["thermal"].rows, 2);
  EXPECT_FALSE(thermal["memory"].supported);
  Scenario& anr = Get("anr_main_thread_blocked");
  EXPECT_FALSE(Capabilities(anr)["frames"].supported);
  EXPECT_EQ(Findings(Run(anr, "trace_overview"), "no_frames").size(), 1u);
}

TEST_F(OverviewSkillsOnScenariosTest, FocusAppIsTheAppWhetherItScrollsStartsOrTakesInput) {
  for (const std::string name : {"scroll_smooth", "startup_cold", "anr_main_thread_blocked"}) {
    Scenario& s = Get(name);
    ASSERT_NE(s.trace, nullptr) << name;
    const SkillRunResult r = Run(s, "focus_app");
    const StepResult* c = Step(r, "candidates");
    ASSERT_TRUE(c && !c->rows.empty()) << name;
    EXPECT_EQ(Int(*c, 0, "pid"), s.truth.app_pid) << name;
    EXPECT_EQ(Str(*c, 0, "process_name"), s.truth.app_package) << name;
    EXPECT_EQ(Int(*c, 0, "foreground_evidence"), 1) << name;
    EXPECT_TRUE(Findings(r, "weak").empty()) << name;
    // Background apps that only burn CPU rank below it (and say so).
    for (size_t i = 1; i < c->rows.size(); ++i) {
      EXPECT_EQ(Int(*c, i, "foreground_evidence"), 0) << name;
    }
    if (name == "scroll_smooth") {
      EXPECT_EQ(Int(*c, 0, "timeline_frames"), s.truth.frames_total);
    } else if (name == "startup_cold") {
      EXPECT_EQ(Int(*c, 0, "launch_slices"), 3);  // bindApplication, activityStart, activityResume
    } else {
      // No frames in the ANR: the taps delivered to it are what put it in front.
      EXPECT_EQ(Int(*c, 0, "timeline_frames"), 0);
      EXPECT_EQ(Int(*c, 0, "input_events"), static_cast<int64_t>(s.truth.input_events.size()));
    }
  }
  // `package` forces the choice.
  const SkillRunResult forced = Run(Get("scroll_smooth"), "focus_app", {{"package", "com.android.phone"}});
  const StepResult* c = Step(forced, "candidates");
  ASSERT_TRUE(c && !c->rows.empty());
  EXPECT_EQ(Str(*c, 0, "process_name"), "com.android.phone");
}

TEST_F(OverviewSkillsOnScenariosTest, RenderingArchitectureIsHwuiWithItsEvidence) {
  Scenario& s = Get("scroll_smooth");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "rendering_architecture");
  const StepResult* signals = Step(r, "signals");
  ASSERT_NE(signals, nullptr);
  // Only the app draws with Choreographer and RenderThread; nothing suggests another toolkit.
  ASSERT_EQ(signals->rows.size(), 1u);
  EXPECT_EQ(Int(*signals, 0, "upid"), s.app_upid);
  EXPECT_EQ(Str(*signals, 0, "architecture"), "hwui");
  EXPECT_EQ(Str(*signals, 0, "confidence"), "high");
  EXPECT_NE(Str(*signals, 0, "evidence").find("Choreographer#doFrame"), std::string::npos);
  EXPECT_EQ(Int(*signals, 0, "signals"),
            QueryInt(s, "SELECT COUNT(*) FROM slice s JOIN thread_track tt ON s.track_id = tt.id "
                        "JOIN thread t USING (utid) WHERE t.upid = " + std::to_string(s.app_upid) +
                        " AND (s.name GLOB 'Choreographer#doFrame *' OR s.name GLOB 'DrawFrames *')"));
}

TEST_F(OverviewSkillsOnScenariosTest, RefreshRateIsTheRateTheScenarioRanAt) {
  for (const int fps : {60, 90, 120}) {
    Scenario& s = Get("scroll_smooth", fps, 1.0);
    ASSERT_NE(s.trace, nullptr) << fps;
    EXPECT_EQ(s.truth.fps, fps);
    const SkillRunResult r = Run(s, "refresh_rate");
    const StepResult* est = Step(r, "estimates");
    ASSERT_TRUE(est && !est->rows.empty()) << fps;
    EXPECT_EQ(Str(*est, 0, "source"), "expected_display_frames");
    EXPECT_EQ(Int(*est, 0, "vsync_period_ns"), 1'000'000'000 / fps);
    EXPECT_NEAR(Num(*est, 0, "refresh_rate_hz"), fps, 0.05);
    EXPECT_EQ(Findings(r, "high").size(), fps > 65 ? 1u : 0u) << fps;
  }
  // Without frames (the ANR) the rate is unknown, and the skill says so.
  const SkillRunResult none = Run(Get("anr_main_thread_blocked"), "refresh_rate");
  EXPECT_TRUE(Step(none, "estimates")->rows.empty());
  EXPECT_EQ(Findings(none, "unknown").size(), 1u);
}

TEST_F(OverviewSkillsOnScenariosTest, TraceFactsCountTheDevicesCpusAndTheirBusyShare) {
  {
    Scenario& s = Get("scroll_smooth");
    ASSERT_NE(s.trace, nullptr);
    const SkillRunResult r = Run(s, "trace_facts");
    const StepResult* facts = Step(r, "facts");
    ASSERT_TRUE(facts && facts->rows.size() == 1);
    EXPECT_EQ(Int(*facts, 0, "cpus"), 8);  // the CPUs, not the threads
    EXPECT_EQ(Int(*facts, 0, "threads"), QueryInt(s, "SELECT COUNT(*) FROM thread WHERE tid != 0"));
    const int64_t busy = QueryInt(s, "SELECT SUM(dur) FROM sched WHERE utid != 0 AND dur > 0");
    const int64_t span = QueryInt(s, "SELECT end_ts - start_ts FROM trace_bounds");
    EXPECT_NEAR(Num(*facts, 0, "cpu_busy_pct"), 100.0 * busy / (8.0 * span), 0.06);
    // The longest slice is work, not a frame timeline entry (named by its token).
    EXPECT_EQ(QueryInt(s, "SELECT COUNT(*) FROM actual_frame_timeline_slice WHERE name = '" +
                              Str(*facts, 0, "longest_slice") + "'"), 0);
  }
}

}  // namespace
}  // namespace tw::skills
