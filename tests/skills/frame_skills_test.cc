// The frame skills over a hand-built Android trace with a known story (no frame timeline is
// imported from the real traces yet): four app frames on a 60 Hz display, three of them late
// for a different reason each.
//
//   frame 101 [1.000, 1.016) s   on time
//   frame 102 [1.020, 1.060) s   App Deadline Missed: main thread in a 30 ms binder call
//   frame 103 [1.070, 1.110) s   App Deadline Missed: main thread waiting 25 ms for a lock
//   frame 104 [1.120, 1.150) s   App Deadline Missed: main thread Runnable for 20 ms
//
// Rows are written to storage directly (as an importer would), then queried through the engine.

#include <memory>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/skills/skill_executor.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/query/trace_database.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw::skills {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kS = 1'000'000'000;

class FrameTraceBuilder {
 public:
  std::unique_ptr<TraceStorage> storage = std::make_unique<TraceStorage>();
  TraceStorage& s = *storage;
  uint32_t next_arg_set = 1;

  void Arg(uint32_t set, std::string_view key, std::optional<int64_t> i,
           std::optional<std::string_view> str) {
    s.args.Insert({.arg_set_id = set,
                   .flat_key = s.Intern(key),
                   .key = s.Intern(key),
                   .int_value = i,
                   .string_value = str ? s.Intern(*str) : kNullStringId,
                   .value_type = s.Intern(i ? "int" : "string")});
  }

  uint32_t ThreadTrack(uint32_t utid) {
    const uint32_t id = s.track.Insert(
        {.name = s.Intern("t"), .type = s.Intern("thread"), .event_type = s.Intern("slice")});
    s.track.utid.Set(id, utid);
    return id;
  }

  void State(uint32_t utid, int64_t ts, int64_t dur, std::string_view state) {
    const uint32_t id =
        s.thread_state.Insert({.ts = ts, .utid = utid, .state = s.Intern(state), .ucpu = 0u});
    s.thread_state.dur.Set(id, dur);
  }

  void Frame(uint32_t actual_track, uint32_t expected_track, int64_t token, int64_t ts, int64_t dur,
             std::string_view jank) {
    const uint32_t e = s.slice.Insert({.ts = ts,
                                       .dur = 16 * kMs,
                                       .track_id = expected_track,
                                       .name = s.Intern(std::to_string(token)),
                                       .depth = 0});
    const uint32_t es = next_arg_set++;
    Arg(es, "Display frame token", token + 1000, std::nullopt);
    Arg(es, "Surface frame token", token, std::nullopt);
    Arg(es, "Layer name", std::nullopt, "com.example.app/MainActivity#0");
    s.slice.arg_set_id.Set(e, es);
    const uint32_t a = s.slice.Insert({.ts = ts,
                                       .dur = dur,
                                       .track_id = actual_track,
                                       .name = s.Intern(std::to_string(token)),
                                       .depth = 0});
    const uint32_t as = next_arg_set++;
    Arg(as, "Display frame token", token + 1000, std::nullopt);
    Arg(as, "Surface frame token", token, std::nullopt);
    Arg(as, "Layer name", std::nullopt, "com.example.app/MainActivity#0");
    Arg(as, "Present type", std::nullopt, jank == "None" ? "On-time Present" : "Late Present");
    Arg(as, "On time finish", jank == "None" ? 1 : 0, std::nullopt);
    Arg(as, "GPU composition", 0, std::nullopt);
    Arg(as, "Jank type", std::nullopt, jank);
    s.slice.arg_set_id.Set(a, as);
  }

  std::unique_ptr<TraceStorage> Build() {
    const uint32_t app = s.process.Insert({.pid = 4000});
    s.process.name.Set(app, s.Intern("com.example.app"));
    s.process.uid.Set(app, 10100);
    const uint32_t server = s.process.Insert({.pid = 1000});
    s.process.name.Set(server, s.Intern("system_server"));
    const uint32_t main = s.thread.Insert({.tid = 4000});
    s.thread.name.Set(main, s.Intern("example.app"));
    s.thread.upid.Set(main, app);
    s.thread.is_main_thread.Set(main, 1);
    const uint32_t render = s.thread.Insert({.tid = 4010});
    s.thread.name.Set(render, s.Intern("RenderThread"));
    s.thread.upid.Set(render, app);
    const uint32_t binder = s.thread.Insert({.tid = 1050});
    s.thread.name.Set(binder, s.Intern("binder:1000_5"));
    s.thread.upid.Set(binder, server);

    const uint32_t actual = s.track.Insert({.name = s.Intern("Actual Timeline"),
                                            .type = s.Intern("android_actual_frame_timeline"),
                                            .event_type = s.Intern("slice")});
    s.track.upid.Set(actual, app);
    const uint32_t expected = s.track.Insert({.name = s.Intern("Expected Timeline"),
                                              .type = s.Intern("android_expected_frame_timeline"),
                                              .event_type = s.Intern("slice")});
    s.track.upid.Set(expected, app);
    const uint32_t main_track = ThreadTrack(main);

    // Slices first on the frame tracks (args in set order), then the main thread's.
    Frame(actual, expected, 101, 1 * kS, 16 * kMs, "None");
    Frame(actual, expected, 102, 1 * kS + 20 * kMs, 40 * kMs, "App Deadline Missed");
    Frame(actual, expected, 103, 1 * kS + 70 * kMs, 40 * kMs, "App Deadline Missed");
    Frame(actual, expected, 104, 1 * kS + 120 * kMs, 30 * kMs, "App Deadline Missed");
    s.slice.Insert({.ts = 1 * kS + 20 * kMs,
                    .dur = 38 * kMs,
                    .track_id = main_track,
                    .name = s.Intern("Choreographer#doFrame 102"),
                    .depth = 0});
    s.slice.Insert({.ts = 1 * kS + 25 * kMs,
                    .dur = 30 * kMs,
                    .track_id = main_track,
                    .name = s.Intern("binder transaction"),
                    .depth = 1});
    s.slice.Insert({.ts = 1 * kS + 72 * kMs,
                    .dur = 25 * kMs,
                    .track_id = main_track,
                    .name = s.Intern("Lock contention on a monitor lock (owner tid: 4011)"),
                    .depth = 0});

    // Main thread states covering the frames.
    State(main, 1 * kS, 20 * kMs, "Running");
    State(main, 1 * kS + 20 * kMs, 5 * kMs, "Running");
    State(main, 1 * kS + 25 * kMs, 30 * kMs, "S");        // in binder
    State(main, 1 * kS + 55 * kMs, 17 * kMs, "Running");
    State(main, 1 * kS + 72 * kMs, 25 * kMs, "S");        // waiting for the lock
    State(main, 1 * kS + 97 * kMs, 23 * kMs, "Running");
    State(main, 1 * kS + 120 * kMs, 20 * kMs, "R");       // waiting for a CPU
    State(main, 1 * kS + 140 * kMs, 10 * kMs, "Running");
    return std::move(storage);
  }
};

class FrameSkillsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    storage_ = FrameTraceBuilder().Build().release();
    auto db = TraceDatabase::Open(storage_);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = db->release();
  }
  static void TearDownTestSuite() {
    delete db_;
    delete storage_;
  }
  void SetUp() override {
    std::vector<Diagnostic> diags;
    library_ = SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diags);
    for (const auto& d : diags) {
      if (!d.warning) ADD_FAILURE() << d.ToString();
    }
  }
  SkillRunResult Run(const std::string& name, const std::map<std::string, std::string>& params = {}) {
    TraceDatabaseRunner runner(db_);
    SkillExecutor executor(library_, runner);
    const Skill* skill = library_.Find(name);
    EXPECT_NE(skill, nullptr) << name;
    if (!skill) return {};
    return executor.Run(*skill, params);
  }
  static const SqlValue& Cell(const StepResult& r, size_t row, std::string_view column) {
    const int c = r.ColumnIndex(column);
    EXPECT_GE(c, 0) << column;
    return r.rows.at(row).at(static_cast<size_t>(c < 0 ? 0 : c));
  }

  static TraceStorage* storage_;
  static TraceDatabase* db_;
  SkillLibrary library_;
};
TraceStorage* FrameSkillsTest::storage_ = nullptr;
TraceDatabase* FrameSkillsTest::db_ = nullptr;

TEST_F(FrameSkillsTest, FrameOverviewCountsJank) {
  SkillRunResult r = Run("frame_overview");
  ASSERT_EQ(r.outcome, SkillOutcome::kOk) << r.message;
  const StepResult& layers = *r.Output();
  ASSERT_EQ(layers.rows.size(), 1u);
  EXPECT_EQ(Cell(layers, 0, "process_name").string_value, "com.example.app");
  EXPECT_EQ(Cell(layers, 0, "frames").int_value, 4);
  EXPECT_EQ(Cell(layers, 0, "janky_frames").int_value, 3);
  EXPECT_EQ(Cell(layers, 0, "app_janky_frames").int_value, 3);
  EXPECT_DOUBLE_EQ(Cell(layers, 0, "jank_rate_pct").double_value, 75.0);
  EXPECT_EQ(Cell(layers, 0, "max_dur").int_value, 40 * kMs);
  // Too few frames for the jank-rate warning (needs 20): only the "few frames" note.
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].rule, "few_frames");
}

TEST_F(FrameSkillsTest, JankyFramesListsAppLateFrames) {
  SkillRunResult r = Run("janky_frames");
  ASSERT_EQ(r.outcome, SkillOutcome::kOk) << r.message;
  const StepResult& frames = *r.Output();
  ASSERT_EQ(frames.step, "by_responsibility");
  const StepResult& list = *r.steps[0];
  ASSERT_EQ(list.rows.size(), 3u);
  EXPECT_EQ(Cell(list, 0, "frame_id").int_value, 102);
  EXPECT_EQ(Cell(list, 0, "responsibility").string_value, "app");
  EXPECT_EQ(Cell(list, 0, "expected_dur").int_value, 16 * kMs);
  EXPECT_EQ(Cell(list, 0, "overrun").int_value, 24 * kMs);  // ends at 60 ms, deadline 36 ms
  EXPECT_EQ(Cell(frames, 0, "responsibility").string_value, "app");
  EXPECT_EQ(Cell(frames, 0, "frames").int_value, 3);
}

TEST_F(FrameSkillsTest, RootCausesSeparateBinderLockAndCpu) {
  SkillRunResult r = Run("jank_root_causes");
  ASSERT_EQ(r.outcome, SkillOutcome::kOk) << r.message;
  const StepResult& causes = *r.Output();
  std::map<std::string, std::pair<int64_t, int64_t>> by_cause;  // cause -> (worst frame, blocked)
  for (size_t i = 0; i < causes.rows.size(); ++i) {
    by_cause[Cell(causes, i, "cause").string_value] = {Cell(causes, i, "worst_frame_id").int_value,
                                                       Cell(causes, i, "total_blocked_ns").int_value};
    EXPECT_EQ(Cell(causes, i, "frames").int_value, 1);
  }
  ASSERT_EQ(by_cause.size(), 3u);
  EXPECT_EQ(by_cause["binder"], std::make_pair(int64_t{102}, 30 * kMs));
  EXPECT_EQ(by_cause["lock"], std::make_pair(int64_t{103}, 25 * kMs));
  EXPECT_EQ(by_cause["cpu_runnable"], std::make_pair(int64_t{104}, 20 * kMs));
  // Each cause is a third of the late frames: above the 30 % share, below the 3-frame minimum.
  EXPECT_TRUE(r.findings.empty());
}

TEST_F(FrameSkillsTest, FrameDetailFindsTheBinderCall) {
  SkillRunResult r = Run("frame_detail", {{"upid", "0"}, {"frame_id", "102"}});
  ASSERT_EQ(r.outcome, SkillOutcome::kOk) << r.message;
  std::map<std::string, const StepResult*> steps;
  for (const auto& s : r.steps) steps[s->step] = s.get();
  ASSERT_EQ(steps["frame"]->rows.size(), 1u);
  EXPECT_EQ(Cell(*steps["frame"], 0, "ts_end").int_value, 1 * kS + 60 * kMs);
  // Main thread states inside [1.020, 1.060): 30 ms asleep in binder, 5 ms Running before it and
  // 5 ms after.
  const StepResult& states = *steps["main_thread_states"];
  ASSERT_EQ(states.status, StepStatus::kOk) << states.message;
  std::map<std::string, int64_t> dur;
  for (size_t i = 0; i < states.rows.size(); ++i) {
    dur[Cell(states, i, "state").string_value] = Cell(states, i, "dur").int_value;
  }
  EXPECT_EQ(dur["Sleeping"], 30 * kMs);
  EXPECT_EQ(dur["Running"], 10 * kMs);
  const StepResult& blocking = *steps["blocking_calls"];
  ASSERT_EQ(blocking.rows.size(), 1u);
  EXPECT_EQ(Cell(blocking, 0, "kind").string_value, "binder");
  EXPECT_EQ(Cell(blocking, 0, "dur").int_value, 30 * kMs);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].rule, "blocked");
  EXPECT_EQ(r.findings[0].title,
            "Main thread (example.app) blocked 30 ms in binder (binder transaction) during the frame");
  // The RenderThread has no states in this trace: its breakdown runs and is empty.
  EXPECT_EQ(steps["render_thread_states"]->status, StepStatus::kOk);
  EXPECT_TRUE(steps["render_thread_states"]->rows.empty());
}

}  // namespace
}  // namespace tw::skills
