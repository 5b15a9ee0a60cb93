// android.frames.per_frame_metrics over a hand-built app: UI and render threads with
// Choreographer#doFrame / DrawFrame slices, and SurfaceFlinger's expected and actual frame
// timelines.

#include "gtest/gtest.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;
using stdlib_testing::TraceBuilder;

constexpr int64_t kMs = 1'000'000;

class FrameMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const uint32_t app = b_.Process(300, "com.example.feed");
    ui_ = b_.ThreadTrack(b_.Thread(300, "com.example.feed", app));
    render_ = b_.ThreadTrack(b_.Thread(301, "RenderThread", app));
    expected_ = TimelineTrack(app, "android_expected_frame_timeline");
    actual_ = TimelineTrack(app, "android_actual_frame_timeline");
  }
  uint32_t TimelineTrack(uint32_t upid, std::string_view type) {
    const uint32_t id = b_.s.track.Insert({.name = b_.s.Intern(type),
                                           .type = b_.s.Intern(type),
                                           .event_type = b_.s.Intern("slice")});
    b_.s.track.upid.Set(id, upid);
    return id;
  }
  // One frame: SurfaceFlinger expected it over [expected_ts, +16 ms); it ran from actual_ts for
  // actual_dur; doFrame took do_frame_dur from actual_ts, then DrawFrames of draw_durs.
  void Frame(int64_t id, int64_t expected_ts, int64_t actual_ts, int64_t actual_dur,
             int64_t do_frame_dur, std::vector<int64_t> draw_durs) {
    const std::string name = std::to_string(id);
    b_.Slice(expected_, expected_ts, 16 * kMs, name);
    b_.Slice(actual_, actual_ts, actual_dur, name);
    b_.Slice(ui_, actual_ts, do_frame_dur, "Choreographer#doFrame " + name);
    int64_t ts = actual_ts + do_frame_dur;
    for (int64_t d : draw_durs) {
      b_.Slice(render_, ts, d, "DrawFrame " + name);
      ts += d;
    }
  }
  Table Query(std::string_view sql) {
    db_ = stdlib_testing::OpenOrDie(b_.storage.get());
    return Rows(*db_, std::string("INCLUDE PERFETTO MODULE android.frames.per_frame_metrics;") +
                          std::string(sql));
  }
  TraceBuilder b_;
  uint32_t ui_ = 0, render_ = 0, expected_ = 0, actual_ = 0;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(FrameMetricsTest, OverrunVsyncDelayAndCpuTimePerFrame) {
  // Frame 7 on time; frame 8 starts 2 ms late and overruns by 9 ms with two DrawFrames.
  Frame(7, 100 * kMs, 100 * kMs, 12 * kMs, 5 * kMs, {4 * kMs});
  Frame(8, 116 * kMs, 118 * kMs, 23 * kMs, 8 * kMs, {6 * kMs, 3 * kMs});
  EXPECT_EQ(Query("SELECT frame_id, overrun FROM android_frames_overrun"),
            (Table{{"7", "-4000000"}, {"8", "9000000"}}));
  EXPECT_EQ(Query("SELECT * FROM android_cpu_time_per_frame"),
            (Table{{"7", "0", "5000000", "4000000", "9000000"},
                   {"8", "2000000", "8000000", "9000000", "19000000"}}));
  EXPECT_EQ(Query("SELECT frame_id, overrun, cpu_time, ui_time, was_jank, was_slow_frame"
                  " FROM android_frame_stats"),
            (Table{{"7", "-4000000", "9000000", "5000000", "NULL", "NULL"},
                   {"8", "9000000", "19000000", "8000000", "1", "NULL"}}));
}

TEST_F(FrameMetricsTest, WithoutDrawFramesCpuTimeIsUiTimePlusFiveMs) {
  const std::string name = "9";
  b_.Slice(expected_, 0, 16 * kMs, name);
  b_.Slice(actual_, 0, 70 * kMs, name);
  b_.Slice(ui_, 0, 60 * kMs, "Choreographer#doFrame 9");
  EXPECT_EQ(Query("SELECT frame_id, overrun, cpu_time, was_slow_frame, was_big_jank,"
                  " was_huge_jank FROM android_frame_stats"),
            (Table{{"9", "54000000", "65000000", "1", "1", "NULL"}}));
}

}  // namespace
}  // namespace tw
