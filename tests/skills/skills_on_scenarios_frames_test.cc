// The per-frame skills against tracegen's ground truth: janky_frames lists exactly the janky
// frames of the manifest with their jank type, timing and who is responsible; frame_detail takes
// an injected frame apart into the facts that were injected into it (the binder call with its
// timing, RenderThread's wait for the GPU) and the placement the simulation enforces.
#include <cstdlib>
#include <set>
#include <string>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;
using tracegen::JankyFrame;

class FrameSkillsOnScenariosTest : public scenario_testing::SkillsOnScenariosTest {
 protected:
  static int64_t Period(const Scenario& s) { return 1'000'000'000 / s.truth.fps; }
};

TEST_F(FrameSkillsOnScenariosTest, JankyFramesAreTheManifestsJankyFrames) {
  Scenario& s = Get("scroll_binder_jank");
  ASSERT_NE(s.trace, nullptr);
  std::map<int64_t, const JankyFrame*> truth;
  for (const JankyFrame& f : s.truth.janky_frames) truth[f.surface_token] = &f;

  // By default buffer stuffing is left out: the rows are the app's late frames.
  const SkillRunResult app_late = Run(s, "janky_frames", App(s));
  const StepResult* frames = Step(app_late, "frames");
  ASSERT_NE(frames, nullptr);
  EXPECT_EQ(static_cast<int64_t>(frames->rows.size()), s.truth.frames_app_deadline_missed);
  for (size_t i = 0; i < frames->rows.size(); ++i) {
    const int64_t token = Int(*frames, i, "frame_id");
    ASSERT_TRUE(truth.count(token)) << token;
    const JankyFrame& f = *truth[token];
    EXPECT_EQ(Str(*frames, i, "jank_type"), "App Deadline Missed") << token;
    EXPECT_EQ(Str(*frames, i, "responsibility"), "app") << token;
    EXPECT_EQ(Int(*frames, i, "ts"), f.ts) << token;
    EXPECT_EQ(Int(*frames, i, "dur"), f.dur) << token;
    // The deadline is one vsync period; a late frame ends after it.
    EXPECT_EQ(Int(*frames, i, "expected_dur"), Period(s)) << token;
    EXPECT_GT(Int(*frames, i, "overrun"), 0) << token;
  }

  // With buffer stuffing: every janky frame of the manifest, each with its jank type.
  const SkillRunResult all = Run(s, "janky_frames", {{"upid", std::to_string(s.app_upid)},
                                                     {"include_buffer_stuffing", "true"}});
  frames = Step(all, "frames");
  ASSERT_NE(frames, nullptr);
  std::set<int64_t> listed;
  for (size_t i = 0; i < frames->rows.size(); ++i) {
    const int64_t token = Int(*frames, i, "frame_id");
    listed.insert(token);
    if (truth.count(token)) {
      EXPECT_EQ(Str(*frames, i, "jank_type"), truth[token]->jank_type) << token;
    }
  }
  std::set<int64_t> expected;
  for (const auto& [token, f] : truth) expected.insert(token);
  EXPECT_EQ(listed, expected);
  const StepResult* by = Step(all, "by_responsibility");
  ASSERT_NE(by, nullptr);
  const int app = RowWhere(*by, "responsibility", "app");
  const int stuffing = RowWhere(*by, "responsibility", "buffer_stuffing");
  ASSERT_GE(app, 0);
  EXPECT_EQ(Int(*by, static_cast<size_t>(app), "frames"), s.truth.frames_app_deadline_missed);
  const int64_t stuffed = s.truth.frames_janky - s.truth.frames_app_deadline_missed;
  EXPECT_EQ(stuffing < 0 ? 0 : Int(*by, static_cast<size_t>(stuffing), "frames"), stuffed);

  // A smooth scroll has none.
  Scenario& smooth = Get("scroll_smooth");
  EXPECT_TRUE(Step(Run(smooth, "janky_frames", App(smooth)), "frames")->rows.empty());
}

TEST_F(FrameSkillsOnScenariosTest, FrameDetailFindsTheInjectedBinderCallInItsFrame) {
  Scenario& s = Get("scroll_binder_jank");
  ASSERT_NE(s.trace, nullptr);
  ASSERT_FALSE(s.truth.injected_binder.empty());
  int checked = 0;
  for (const JankyFrame& f : s.truth.janky_frames) {
    if (f.cause != "binder") continue;
    const tracegen::InjectedBinder* call = nullptr;
    for (const auto& b : s.truth.injected_binder) {
      if (b.ts >= f.ts && b.ts < f.ts + f.dur) call = &b;
    }
    ASSERT_NE(call, nullptr) << "no injected call in frame " << f.surface_token;
    SCOPED_TRACE("frame " + std::to_string(f.surface_token));
    const SkillRunResult r = Run(s, "frame_detail", {{"upid", std::to_string(s.app_upid)},
                                                     {"frame_id", std::to_string(f.surface_token)}});
    const StepResult* frame = Step(r, "frame");
    ASSERT_TRUE(frame && frame->rows.size() == 1);
    EXPECT_EQ(Int(*frame, 0, "ts"), f.ts);
    EXPECT_EQ(Int(*frame, 0, "dur"), f.dur);
    EXPECT_EQ(Str(*frame, 0, "jank_type"), f.jank_type);
    EXPECT_EQ(Int(*frame, 0, "expected_dur"), Period(s));

    // The binder call, with its timing, is the frame's blocking call.
    const StepResult* blocking = Step(r, "blocking_calls");
    ASSERT_TRUE(blocking && !blocking->rows.empty());
    EXPECT_EQ(Str(*blocking, 0, "kind"), "binder");
    EXPECT_LE(std::llabs(Int(*blocking, 0, "ts") - call->ts), 1'000);
    EXPECT_LE(std::llabs(Int(*blocking, 0, "dur") - call->dur), 100'000);
    EXPECT_EQ(Findings(r, "blocked").size(), 1u);

    // The main thread's states cover the frame, and it slept through the call.
    const StepResult* states = Step(r, "main_thread_states");
    ASSERT_NE(states, nullptr);
    EXPECT_EQ(Sum(*states, "dur"), f.dur);
    const int sleeping = RowWhere(*states, "state", "Sleeping");
    ASSERT_GE(sleeping, 0);
    EXPECT_GE(Int(*states, static_cast<size_t>(sleeping), "dur"), call->dur - 100'000);

    // The main thread and RenderThread may only run on the big cores (CPUs 4-7).
    const StepResult* placement = Step(r, "cpu_placement");
    ASSERT_TRUE(placement && !placement->rows.empty());
    for (size_t i = 0; i < placement->rows.size(); ++i) {
      EXPECT_GE(Int(*placement, i, "cpu"), 4);
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(s.truth.injected_binder.size()));
}

TEST_F(FrameSkillsOnScenariosTest, FrameDetailShowsRenderThreadWaitingForTheGpu) {
  Scenario& s = Get("scroll_renderthread_gpu");
  ASSERT_NE(s.trace, nullptr);
  // The injected fence wait: 1.3 vsync periods at severity 1.
  const int64_t injected_wait = static_cast<int64_t>(1.3 * s.truth.severity * static_cast<double>(Period(s)));
  int checked = 0;
  for (const JankyFrame& f : s.truth.janky_frames) {
    if (f.cause != "gpu_wait") continue;
    SCOPED_TRACE("frame " + std::to_string(f.surface_token));
    const SkillRunResult r = Run(s, "frame_detail", {{"upid", std::to_string(s.app_upid)},
                                                     {"frame_id", std::to_string(f.surface_token)}});
    const StepResult* rt = Step(r, "render_thread_states");
    ASSERT_NE(rt, nullptr);
    const int sleeping = RowWhere(*rt, "state", "Sleeping");
    ASSERT_GE(sleeping, 0);
    EXPECT_GE(Int(*rt, static_cast<size_t>(sleeping), "dur"), injected_wait);
    // Not a binder, lock or GC problem of the process.
    EXPECT_TRUE(Findings(r, "blocked").empty());
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

TEST_F(FrameSkillsOnScenariosTest, RenderThreadWaitsAreTheInjectedGpuWaits) {
  Scenario& s = Get("scroll_renderthread_gpu");
  ASSERT_NE(s.trace, nullptr);
  int64_t gpu_frames = 0;
  for (const tracegen::JankyFrame& f : s.truth.janky_frames) gpu_frames += f.cause == "gpu_wait";
  ASSERT_GT(gpu_frames, 1);
  const SkillRunResult r = Run(s, "render_thread_waits", App(s));
  const StepResult* waits = Step(r, "waits");
  ASSERT_NE(waits, nullptr);
  const int gpu = RowWhere(*waits, "kind", "waiting for GPU completion");
  ASSERT_GE(gpu, 0);
  EXPECT_EQ(Int(*waits, gpu, "waits"), gpu_frames);
  EXPECT_EQ(Int(*waits, gpu, "in_late_frames"), gpu_frames);
  const auto late = Findings(r, "waits_in_late_frames");
  ASSERT_FALSE(late.empty());
  EXPECT_EQ(late[0]->cause, "render_thread");
  // On the smooth scroll RenderThread never waits in a late frame.
  Scenario& smooth = Get("scroll_smooth");
  EXPECT_TRUE(Findings(Run(smooth, "render_thread_waits", App(smooth)), "waits_in_late_frames").empty());
}

TEST_F(FrameSkillsOnScenariosTest, SlowdownReasonsAndJankOverTimeNameTheThermalCap) {
  for (int fps : {60, 120}) {
    Scenario& s = Get("scroll_thermal", fps);
    ASSERT_NE(s.trace, nullptr);
    const tracegen::GroundTruth& t = s.truth;
    SCOPED_TRACE(fps);
    // Late frames ran at the cap; on-time frames faster.
    const SkillRunResult slow = Run(s, "frame_slowdown_reasons", App(s));
    const StepResult* factors = Step(slow, "factors");
    ASSERT_NE(factors, nullptr);
    const int clock = RowWhere(*factors, "factor", "cpu_frequency");
    ASSERT_GE(clock, 0);
    EXPECT_EQ(Int(*factors, clock, "late_value"), t.thermal_cap_khz);
    EXPECT_GT(Num(*factors, clock, "on_time"), 1.5 * t.thermal_cap_khz);
    const auto slow_clock = Findings(slow, "slow_clock");
    ASSERT_EQ(slow_clock.size(), 1u);
    EXPECT_EQ(slow_clock[0]->cause, "cpu_frequency");
    // Over time: the second half is janky at the capped clock, the first is not.
    const SkillRunResult over = Run(s, "jank_over_time", App(s));
    const StepResult* halves = Step(over, "halves");
    ASSERT_NE(halves, nullptr);
    const int first = RowWhere(*halves, "part", "first_half"), second = RowWhere(*halves, "part", "second_half");
    ASSERT_TRUE(first >= 0 && second >= 0);
    EXPECT_GT(Num(*halves, second, "jank_pct"), Num(*halves, first, "jank_pct"));
    EXPECT_EQ(Int(*halves, second, "big_khz"), t.thermal_cap_khz);
    const auto fell = Findings(over, "clock_fell");
    ASSERT_EQ(fell.size(), 1u);
    EXPECT_EQ(fell[0]->cause, "cpu_frequency");
  }
  // A smooth scroll does not get worse over time.
  Scenario& smooth = Get("scroll_smooth");
  const SkillRunResult over = Run(smooth, "jank_over_time", App(smooth));
  EXPECT_TRUE(Findings(over, "worse_later").empty());
  EXPECT_TRUE(Findings(over, "clock_fell").empty());
}

}  // namespace
}  // namespace tw::skills
