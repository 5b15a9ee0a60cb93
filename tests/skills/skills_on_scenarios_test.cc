// The skill library against tracegen's ground truth: each scenario is generated once, loaded,
// and the skills that should see its injected problem are run; their rows must state the facts
// the manifest records (frame counts, the janky frames and their cause, the binder calls with
// their server, the thermal cap, the startup type and duration, the main thread's I/O, the ANR
// and the thread that held the main thread up). The other skills are held against the truth in
// skills_on_scenarios_{overview,frames,cpu,memory,startup,input}_test.cc.
#include <cmath>
#include <set>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;
using scenario_testing::SkillsOnScenariosTest;

TEST_F(SkillsOnScenariosTest, FrameSkillsCountTheFramesAndClassifyBinderJank) {
  Scenario& s = Get("scroll_binder_jank");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult overview = Run(s, "frame_overview", App(s));
  const StepResult* layers = Step(overview, "layers");
  ASSERT_TRUE(layers && layers->rows.size() == 1);
  EXPECT_EQ(Cell(*layers, 0, "frames").int_value, s.truth.frames_total);
  EXPECT_EQ(Cell(*layers, 0, "app_janky_frames").int_value, s.truth.frames_app_deadline_missed);
  const StepResult* types = Step(overview, "jank_types");
  ASSERT_NE(types, nullptr);
  int64_t janky = 0;
  for (size_t i = 0; i < types->rows.size(); ++i) janky += Cell(*types, i, "frames").int_value;
  EXPECT_EQ(janky, s.truth.frames_janky);

  // Every app-deadline-missed frame is found and classified as binder, as injected.
  std::set<int64_t> injected;
  for (const auto& f : s.truth.janky_frames) {
    if (f.jank_type == "App Deadline Missed") injected.insert(f.surface_token);
  }
  const SkillRunResult causes = Run(s, "jank_root_causes", App(s));
  const StepResult* frames = Step(causes, "frames");
  ASSERT_NE(frames, nullptr);
  std::set<int64_t> found;
  for (size_t i = 0; i < frames->rows.size(); ++i) {
    found.insert(Cell(*frames, i, "frame_id").int_value);
    EXPECT_EQ(Cell(*frames, i, "cause").string_value, "binder") << "frame " << Cell(*frames, i, "frame_id").int_value;
  }
  EXPECT_EQ(found, injected);
}

TEST_F(SkillsOnScenariosTest, BinderSlowCallsFindTheInjectedCallsAndTheirServer) {
  Scenario& s = Get("scroll_binder_jank");
  ASSERT_NE(s.trace, nullptr);
  ASSERT_FALSE(s.truth.injected_binder.empty());
  const SkillRunResult r = Run(s, "binder_slow_calls", App(s));
  const StepResult* calls = Step(r, "calls");
  ASSERT_NE(calls, nullptr);
  for (const auto& b : s.truth.injected_binder) {
    bool matched = false;
    for (size_t i = 0; i < calls->rows.size(); ++i) {
      if (Cell(*calls, i, "client_ts").int_value != b.ts) continue;
      matched = true;
      EXPECT_EQ(Cell(*calls, i, "server_process").string_value, b.server_process);
      EXPECT_EQ(Cell(*calls, i, "aidl_name").string_value, b.aidl);
      EXPECT_EQ(Cell(*calls, i, "is_main_thread").int_value, 1);
      EXPECT_LE(std::llabs(Cell(*calls, i, "client_dur").int_value - b.dur), 100'000) << b.ts;
    }
    EXPECT_TRUE(matched) << "injected call at " << b.ts << " not listed";
  }
}

TEST_F(SkillsOnScenariosTest, JankCausesOfGcLockRenderThreadAndCpuContentionScenarios) {
  // Under CPU contention the late frames' time goes to RenderThread (and the main thread)
  // waiting for a CPU: every one of them is cpu_runnable, none "unknown".
  for (const auto& [scenario, cause] : std::vector<std::pair<std::string, std::string>>{
           {"scroll_gc_pressure", "gc"},
           {"scroll_lock_contention", "lock"},
           {"scroll_renderthread_gpu", "render_thread"},
           {"scroll_cpu_contention", "cpu_runnable"}}) {
    Scenario& s = Get(scenario);
    ASSERT_NE(s.trace, nullptr);
    const SkillRunResult r = Run(s, "jank_root_causes", App(s));
    const StepResult* causes = Step(r, "causes");
    ASSERT_TRUE(causes && !causes->rows.empty()) << scenario;
    EXPECT_EQ(Cell(*causes, 0, "cause").string_value, cause) << scenario;
    EXPECT_EQ(Cell(*causes, 0, "frames").int_value, s.truth.frames_app_deadline_missed) << scenario;
  }
}

TEST_F(SkillsOnScenariosTest, CpuFrequencyFindsTheThermalCap) {
  Scenario& s = Get("scroll_thermal");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "cpu_frequency");
  const StepResult* caps = Step(r, "caps");
  ASSERT_NE(caps, nullptr);
  std::set<int64_t> capped;
  for (size_t i = 0; i < caps->rows.size(); ++i) {
    if (Cell(*caps, i, "capped_pct").double_value < 20) continue;
    capped.insert(Cell(*caps, i, "cpu").int_value);
    EXPECT_EQ(Cell(*caps, i, "capped_khz").int_value, s.truth.thermal_cap_khz);
    EXPECT_LE(std::llabs(Cell(*caps, i, "cap_ts").int_value - s.truth.thermal_cap_ts), 10'000'000);
  }
  std::set<int64_t> truth(s.truth.thermal_capped_cpus.begin(), s.truth.thermal_capped_cpus.end());
  EXPECT_EQ(capped, truth);
  int warnings = 0;
  for (const Finding& f : r.findings) warnings += f.rule == "capped_mid_trace";
  EXPECT_EQ(warnings, static_cast<int>(truth.size()));
  // No cap where none was injected.
  Scenario& smooth = Get("scroll_smooth");
  for (const Finding& f : Run(smooth, "cpu_frequency").findings) EXPECT_NE(f.rule, "capped_mid_trace") << f.title;
}

TEST_F(SkillsOnScenariosTest, StartupSkillsStateTypeDurationAndSlowIo) {
  for (const std::string name : {"startup_cold", "startup_warm", "startup_cold_slow_io"}) {
    Scenario& s = Get(name);
    ASSERT_NE(s.trace, nullptr);
    const SkillRunResult list = Run(s, "startup_list");
    const StepResult* startups = Step(list, "startups");
    ASSERT_TRUE(startups && startups->rows.size() == 1) << name;
    EXPECT_EQ(Cell(*startups, 0, "startup_type").string_value, s.truth.startup_type) << name;
    EXPECT_LE(std::llabs(Cell(*startups, 0, "dur").int_value - s.truth.startup_dur), 1'000'000) << name;
  }
  Scenario& io = Get("startup_cold_slow_io");
  const SkillRunResult startup_blocking = Run(io, "startup_blocking");
  const StepResult* blocking = Step(startup_blocking, "blocking");
  ASSERT_NE(blocking, nullptr);
  bool found_io = false;
  for (size_t i = 0; i < blocking->rows.size(); ++i) {
    if (Cell(*blocking, i, "cause").string_value != "io") continue;
    found_io = true;
    const double total = static_cast<double>(Cell(*blocking, i, "total_dur").int_value);
    EXPECT_NEAR(total, static_cast<double>(io.truth.startup_main_thread_d_state_ns),
                0.05 * static_cast<double>(io.truth.startup_main_thread_d_state_ns));
  }
  EXPECT_TRUE(found_io);
}

TEST_F(SkillsOnScenariosTest, AnrSkillsFindTheAnrAndTheThreadBehindIt) {
  Scenario& s = Get("anr_main_thread_blocked");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult anr_list = Run(s, "anr_list");
  const StepResult* anrs = Step(anr_list, "anrs");
  ASSERT_TRUE(anrs && anrs->rows.size() == 1);
  EXPECT_EQ(Cell(*anrs, 0, "anr_type").string_value, s.truth.anr_type);
  EXPECT_EQ(Cell(*anrs, 0, "pid").int_value, s.truth.app_pid);
  const SkillRunResult chain = Run(s, "anr_blocking_chain");
  const StepResult* waits = Step(chain, "waits");
  ASSERT_TRUE(waits && !waits->rows.empty());
  EXPECT_EQ(Cell(*waits, 0, "waker_tid").int_value, s.truth.anr_blocking_tid);
}

}  // namespace
}  // namespace tw::skills
