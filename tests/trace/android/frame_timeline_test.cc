// FrameTimelineEvent packets → expected/actual timeline slices, args, flows and stats.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libs/trace/importers/proto/frame_timeline_decoder.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

namespace ft = pf::frame_timeline_event;

void AddEvent(proto::Writer& trace, int64_t ts, uint32_t kind, const proto::Writer& body) {
  proto::Writer event;
  event.Message(kind, body);
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  packet.Message(pf::trace_packet::kFrameTimelineEvent, event);
  trace.Message(pf::trace::kPacket, packet);
}

proto::Writer DisplayStart(int64_t cookie, int64_t token, int32_t pid) {
  proto::Writer w;
  w.Int(pf::frame_timeline_actual_display::kCookie, cookie);
  w.Int(pf::frame_timeline_actual_display::kToken, token);
  w.Int(pf::frame_timeline_actual_display::kPid, pid);
  return w;
}

proto::Writer SurfaceStart(int64_t cookie, int64_t token, int64_t display_token, int32_t pid,
                           std::string_view layer) {
  proto::Writer w;
  w.Int(pf::frame_timeline_actual_surface::kCookie, cookie);
  w.Int(pf::frame_timeline_actual_surface::kToken, token);
  w.Int(pf::frame_timeline_actual_surface::kDisplayFrameToken, display_token);
  w.Int(pf::frame_timeline_actual_surface::kPid, pid);
  w.String(pf::frame_timeline_actual_surface::kLayerName, layer);
  return w;
}

proto::Writer End(int64_t cookie) {
  proto::Writer w;
  w.Int(pf::frame_timeline_frame_end::kCookie, cookie);
  return w;
}

std::unique_ptr<LoadedTrace> Load(proto::Writer& trace) {
  auto t = LoadTraceBytes(trace.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(FrameTimelineJankText, BitsInTraceProcessorOrder) {
  namespace j = pf::frame_timeline_jank;
  EXPECT_EQ(FrameTimelineJankTypeText(j::kUnspecified), "Unspecified");
  EXPECT_EQ(FrameTimelineJankTypeText(j::kNone), "None");
  EXPECT_EQ(FrameTimelineJankTypeText(j::kAppDeadlineMissed | j::kBufferStuffing),
            "App Deadline Missed, Buffer Stuffing");
  // Resynced jitter (4096) is listed before buffer stuffing (128), as trace_processor does.
  EXPECT_EQ(FrameTimelineJankTypeText(j::kAppResyncedJitter | j::kBufferStuffing),
            "App Resynced Jitter, Buffer Stuffing");
  EXPECT_EQ(FrameTimelineJankTypeText(j::kSfScheduling | j::kSfCpuDeadlineMissed),
            "SurfaceFlinger Scheduling, SurfaceFlinger CPU Deadline Missed");
}

TEST(FrameTimeline, ActualSurfaceAndDisplayFramesWithJankTagsAndFlow) {
  proto::Writer trace;
  // The app (pid 1000) misses its deadline on token 5, shown in display frame 6 of
  // SurfaceFlinger (pid 666), which was itself late for SurfaceFlinger CPU reasons.
  proto::Writer surface = SurfaceStart(1, 5, 6, 1000, "Layer#42");
  surface.Int(pf::frame_timeline_actual_surface::kPresentType, 2);  // late
  surface.Bool(pf::frame_timeline_actual_surface::kOnTimeFinish, false);
  surface.Int(pf::frame_timeline_actual_surface::kJankType, 64);    // app deadline missed
  surface.Int(pf::frame_timeline_actual_surface::kPredictionType, 1);
  AddEvent(trace, 100, ft::kActualSurfaceFrameStart, surface);
  proto::Writer display = DisplayStart(2, 6, 666);
  display.Int(pf::frame_timeline_actual_display::kPresentType, 2);
  display.Int(pf::frame_timeline_actual_display::kJankType, 16);  // SF CPU deadline missed
  display.Int(pf::frame_timeline_actual_display::kPredictionType, 1);
  AddEvent(trace, 110, ft::kActualDisplayFrameStart, display);
  AddEvent(trace, 140, ft::kFrameEnd, End(1));
  AddEvent(trace, 150, ft::kFrameEnd, End(2));
  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(
      SELECT s.name, s.ts, s.dur, p.pid, display_frame_token, surface_frame_token, layer_name,
             present_type, on_time_finish, jank_type, jank_tag, jank_severity_type,
             prediction_type
      FROM actual_frame_timeline_slice AS s JOIN process AS p USING (upid) ORDER BY s.ts)"),
            (Table{{"5", "100", "40", "1000", "6", "5", "Layer#42", "Late Present", "0",
                    "App Deadline Missed", "Self Jank", "Unknown", "Valid Prediction"},
                   {"6", "110", "40", "666", "6", "NULL", "NULL", "Late Present", "0",
                    "SurfaceFlinger CPU Deadline Missed", "Self Jank", "Unknown",
                    "Valid Prediction"}}));
  // The app frame points at the display frame that presented it.
  EXPECT_EQ(Rows(t->db(), R"(
      SELECT o.name, i.name FROM flow AS f
      JOIN slice AS o ON o.id = f.slice_out JOIN slice AS i ON i.id = f.slice_in)"),
            (Table{{"5", "6"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT name FROM track WHERE type = 'android_actual_frame_timeline' "
                            "LIMIT 1"),
            "Actual Timeline");
}

TEST(FrameTimeline, OverlappingFramesGetSeparateTracksAndBadEventsAreCounted) {
  proto::Writer trace;
  proto::Writer expected_a;
  expected_a.Int(pf::frame_timeline_expected_display::kCookie, 1);
  expected_a.Int(pf::frame_timeline_expected_display::kToken, 10);
  expected_a.Int(pf::frame_timeline_expected_display::kPid, 666);
  AddEvent(trace, 100, ft::kExpectedDisplayFrameStart, expected_a);
  proto::Writer expected_b;
  expected_b.Int(pf::frame_timeline_expected_display::kCookie, 2);
  expected_b.Int(pf::frame_timeline_expected_display::kToken, 11);
  expected_b.Int(pf::frame_timeline_expected_display::kPid, 666);
  AddEvent(trace, 105, ft::kExpectedDisplayFrameStart, expected_b);
  AddEvent(trace, 120, ft::kFrameEnd, End(1));
  AddEvent(trace, 125, ft::kFrameEnd, End(2));
  AddEvent(trace, 130, ft::kFrameEnd, End(99));  // never started
  proto::Writer no_pid;
  no_pid.Int(pf::frame_timeline_expected_display::kCookie, 3);
  no_pid.Int(pf::frame_timeline_expected_display::kToken, 12);
  AddEvent(trace, 140, ft::kExpectedDisplayFrameStart, no_pid);  // missing pid: malformed
  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(SELECT name, ts, dur, depth FROM expected_frame_timeline_slice
                             ORDER BY ts)"),
            (Table{{"10", "100", "20", "0"}, {"11", "105", "20", "0"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(DISTINCT track_id) FROM expected_frame_timeline_slice"),
            "2");
  // The two tracks are one compressed set (trace_processor's track compressor): each names
  // its place in the set among its dimensions, and the set is their track group.
  EXPECT_EQ(Rows(t->db(), R"(SELECT extract_arg(dimension_arg_set_id, 'track_compressor_idx'),
                                    track_group_id IS NOT NULL
                             FROM track WHERE type = 'android_expected_frame_timeline'
                             ORDER BY id)"),
            (Table{{"0", "1"}, {"1", "1"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(DISTINCT track_group_id) FROM track "
                            "WHERE type = 'android_expected_frame_timeline'"),
            "1");
  EXPECT_EQ(Scalar(t->db(), "SELECT value FROM stats WHERE name = "
                            "'frame_timeline_unpaired_end_event'"),
            "1");
  EXPECT_EQ(Scalar(t->db(), "SELECT value FROM stats WHERE name = "
                            "'frame_timeline_event_parser_errors'"),
            "1");
}

}  // namespace
}  // namespace tw
