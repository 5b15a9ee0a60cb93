// The shipped skill library (skills/) on the real traces in ../shared/traces: every skill either
// succeeds or reports precisely why the trace (or engine) cannot support it, and results agree
// with independent SQL and with facts documented for the traces (traces/INDEX.md).
// Skipped when ../shared/traces is absent.

#include <filesystem>
#include <map>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/skills/skill_executor.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/trace_loader.h"

namespace tw::skills {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kTraces = TW_SHARED_DIR "/traces";
const std::string kStartupTrace = kTraces + "/perfetto/perfetto-skills__api32_startup_warm.perfetto-trace";

class LibraryOnRealTracesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::is_directory(kTraces)) GTEST_SKIP() << kTraces << " is absent";
    std::vector<Diagnostic> diags;
    library_ = SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diags);
    for (const auto& d : diags) {
      if (!d.warning) ADD_FAILURE() << d.ToString();
    }
    ASSERT_GT(library_.size(), 10u);
  }

  SkillRunResult Run(LoadedTrace& trace, const std::string& skill,
                     const std::map<std::string, std::string>& params = {}) {
    TraceDatabaseRunner runner(&trace.db());
    SkillExecutor executor(library_, runner);
    const Skill* s = library_.Find(skill);
    EXPECT_NE(s, nullptr) << skill;
    if (!s) return {};
    return executor.Run(*s, params);
  }

  SkillLibrary library_;
};

// Values for required inputs, so every skill can be invoked on any trace.
std::map<std::string, std::string> RequiredParams(const Skill& skill) {
  std::map<std::string, std::string> params;
  for (const SkillInput& in : skill.inputs) {
    if (!in.required) continue;
    static const std::string kText = "x", kNumber = "1";
    params.emplace(in.name, in.type == InputType::kString ? kText : kNumber);
  }
  return params;
}

TEST_F(LibraryOnRealTracesTest, EverySkillSucceedsOrSaysPreciselyWhyNot) {
  std::vector<std::string> traces;
  for (const char* dir : {"perfetto", "systrace", "chrome_json"}) {
    if (!fs::is_directory(kTraces + "/" + dir)) continue;
    for (const auto& e : fs::directory_iterator(kTraces + "/" + dir)) {
      if (e.is_regular_file() && e.file_size() < 3'000'000) traces.push_back(e.path().string());
    }
  }
  std::sort(traces.begin(), traces.end());
  ASSERT_FALSE(traces.empty());
  int loaded = 0, ok = 0, not_supported = 0;
  for (const std::string& path : traces) {
    auto trace = LoadTraceFile(path);
    if (!trace.ok()) continue;  // not a trace (e.g. a procfs dump); the loader's tests cover it
    ++loaded;
    for (const Skill* skill : library_.All()) {
      SkillRunResult r = Run(**trace, skill->name, RequiredParams(*skill));
      SCOPED_TRACE(path + " / " + skill->name + ": " + r.message);
      if (r.outcome == SkillOutcome::kOk) {
        ++ok;
        EXPECT_FALSE(r.steps.empty());
        for (const auto& step : r.steps) {
          EXPECT_NE(step->status, StepStatus::kFailed) << step->step << ": " << step->message;
          if (step->status == StepStatus::kOk) {
            EXPECT_FALSE(step->artifact_id.empty());
          }
        }
        continue;
      }
      ASSERT_EQ(r.outcome, SkillOutcome::kNotSupported);
      ++not_supported;
      const std::string trace_prefix = "not supported by this trace: skill '" + skill->name + "' needs data in ";
      const std::string engine_prefix = "not supported by this engine: skill '" + skill->name + "' needs SQL module '";
      EXPECT_TRUE(r.message.rfind(trace_prefix, 0) == 0 || r.message.rfind(engine_prefix, 0) == 0);
      // The message names something the skill really requires.
      bool names_requirement = false;
      for (const auto& t : skill->required_tables) names_requirement |= r.message.find(t) != std::string::npos;
      for (const auto& m : skill->required_modules) names_requirement |= r.message.find(m) != std::string::npos;
      EXPECT_TRUE(names_requirement);
    }
  }
  EXPECT_GT(loaded, 10);
  EXPECT_GT(ok, loaded * 5) << "most skills run on most traces";
  EXPECT_GT(not_supported, 0);
}

TEST_F(LibraryOnRealTracesTest, StartupTraceFacts) {
  if (!fs::exists(kStartupTrace)) GTEST_SKIP() << kStartupTrace << " is absent";
  auto trace = LoadTraceFile(kStartupTrace);
  ASSERT_TRUE(trace.ok()) << trace.status();
  LoadedTrace& t = **trace;
  auto scalar = [&](const std::string& sql) {
    auto r = t.Query(sql);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r->rows[0][0].int_value : -1;
  };

  // The macrobenchmark's target app is the app in front (INDEX.md: a warm start of it).
  SkillRunResult focus = Run(t, "focus_app");
  ASSERT_EQ(focus.outcome, SkillOutcome::kOk) << focus.message;
  const StepResult* candidates = focus.Output();
  ASSERT_NE(candidates, nullptr);
  ASSERT_FALSE(candidates->rows.empty());
  const int name_col = candidates->ColumnIndex("process_name");
  EXPECT_EQ(candidates->rows[0][name_col].string_value,
            "androidx.benchmark.integration.macrobenchmark.target");
  const int64_t upid = candidates->rows[0][candidates->ColumnIndex("upid")].int_value;

  // Capabilities agree with the tables.
  SkillRunResult overview = Run(t, "trace_overview");
  ASSERT_EQ(overview.outcome, SkillOutcome::kOk) << overview.message;
  const StepResult* caps = overview.Output();
  ASSERT_NE(caps, nullptr);
  EXPECT_EQ(caps->rows[0][0].string_value, "sched");
  EXPECT_EQ(caps->rows[0][caps->ColumnIndex("row_count")].int_value, scalar("SELECT COUNT(*) FROM sched"));
  EXPECT_EQ(caps->rows[0][caps->ColumnIndex("supported")].int_value, 1);

  // The refresh rate is a plausible display rate and matches its own period.
  SkillRunResult rr = Run(t, "refresh_rate");
  ASSERT_EQ(rr.outcome, SkillOutcome::kOk);
  const StepResult* est = rr.Output();
  ASSERT_NE(est, nullptr);
  ASSERT_FALSE(est->rows.empty()) << "the trace has SurfaceFlinger VSync counters";
  const double hz = est->rows[0][est->ColumnIndex("refresh_rate_hz")].double_value;
  const int64_t period = est->rows[0][est->ColumnIndex("vsync_period_ns")].int_value;
  EXPECT_GE(hz, 55);
  EXPECT_LE(hz, 125);
  EXPECT_NEAR(hz, 1e9 / static_cast<double>(period), 0.1);

  // The main thread's states add up to 100 % and its Running time equals sched's.
  SkillRunResult states = Run(t, "thread_state_breakdown", {{"upid", std::to_string(upid)}});
  ASSERT_EQ(states.outcome, SkillOutcome::kOk) << states.message;
  const StepResult* st = states.Output();
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->step, "states");
  double pct = 0;
  int64_t running = -1;
  for (const auto& row : st->rows) {
    pct += row[st->ColumnIndex("pct")].double_value;
    if (row[0].string_value == "Running") running = row[st->ColumnIndex("dur")].int_value;
  }
  EXPECT_NEAR(pct, 100, 0.1);
  const int64_t main_utid = scalar(absl::StrCat(
      "SELECT t.utid FROM thread t JOIN process p USING (upid) WHERE t.upid = ", upid,
      " AND (t.is_main_thread = 1 OR t.tid = p.pid) ORDER BY t.is_main_thread DESC LIMIT 1"));
  EXPECT_EQ(running, scalar(absl::StrCat("SELECT SUM(dur) FROM sched WHERE dur > 0 AND utid = ", main_utid)));

  // CPU shares: sorted, bounded, and the top thread's time equals sched's.
  SkillRunResult top = Run(t, "cpu_top_threads", {{"limit", "5"}});
  ASSERT_EQ(top.outcome, SkillOutcome::kOk) << top.message;
  const StepResult* tt = top.Output();
  ASSERT_EQ(tt->rows.size(), 5u);
  const int cpu_col = tt->ColumnIndex("cpu_time_ns");
  for (size_t i = 1; i < tt->rows.size(); ++i) {
    EXPECT_GE(tt->rows[i - 1][cpu_col].int_value, tt->rows[i][cpu_col].int_value);
  }
  EXPECT_EQ(tt->rows[0][cpu_col].int_value,
            scalar(absl::StrCat("SELECT SUM(dur) FROM sched WHERE dur > 0 AND utid = ",
                                tt->rows[0][0].int_value)));

  // The startup matches Perfetto's android_startups row for this trace (INDEX.md anchor:
  // ts=157479786566030 dur=156515747, a warm start of the macrobenchmark target).
  SkillRunResult startups = Run(t, "startup_list");
  if (startups.outcome == SkillOutcome::kOk) {
    const StepResult* st = startups.Output();
    ASSERT_EQ(st->rows.size(), 1u);
    EXPECT_EQ(st->rows[0][st->ColumnIndex("ts")].int_value, 157479786566030);
    EXPECT_EQ(st->rows[0][st->ColumnIndex("dur")].int_value, 156515747);
    EXPECT_EQ(st->rows[0][st->ColumnIndex("startup_type")].string_value, "warm");
    EXPECT_EQ(st->rows[0][st->ColumnIndex("package")].string_value,
              "androidx.benchmark.integration.macrobenchmark.target");
  } else {
    EXPECT_EQ(startups.outcome, SkillOutcome::kNotSupported) << startups.message;
  }

  // Frame timeline: the frame skills agree with the timeline table (or, before the importer
  // handled FrameTimelineEvent packets, say precisely that it is empty).
  const int64_t actual_frames = scalar("SELECT COUNT(*) FROM actual_frame_timeline_slice");
  SkillRunResult frames = Run(t, "frame_overview");
  if (actual_frames == 0) {
    EXPECT_EQ(frames.outcome, SkillOutcome::kNotSupported);
    EXPECT_EQ(frames.message,
              "not supported by this trace: skill 'frame_overview' needs data in "
              "actual_frame_timeline_slice, which is empty in this trace");
    return;
  }
  ASSERT_EQ(frames.outcome, SkillOutcome::kOk) << frames.message;
  const int64_t app_late = scalar(
      "SELECT COUNT(*) FROM actual_frame_timeline_slice a JOIN process p USING (upid) "
      "WHERE a.jank_type GLOB '*App Deadline Missed*' AND p.name NOT GLOB '*surfaceflinger*'");
  int64_t app_janky = 0;
  const StepResult* layers = frames.Output();
  for (const auto& row : layers->rows) app_janky += row[layers->ColumnIndex("app_janky_frames")].int_value;
  EXPECT_EQ(app_janky, app_late);
  SkillRunResult causes = Run(t, "jank_root_causes");
  ASSERT_EQ(causes.outcome, SkillOutcome::kOk) << causes.message;
  int64_t classified = 0;
  const StepResult* c = causes.Output();
  for (const auto& row : c->rows) classified += row[c->ColumnIndex("frames")].int_value;
  EXPECT_EQ(classified, app_late) << "every app-late frame gets exactly one cause";
}

}  // namespace
}  // namespace tw::skills
