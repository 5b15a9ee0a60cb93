// AndroidInputEvent packets (winscope extension 5 of TracePacket field 112) → android.input's
// android_motion_events, android_key_events and android_input_event_dispatch, with the args
// trace_processor's proto-to-args naming gives them.

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

namespace ie = pf::android_input_event;

void Float(proto::Writer& w, uint32_t field, float v) {
  uint32_t bits = 0;
  std::memcpy(&bits, &v, sizeof(bits));
  w.Fixed32(field, bits);
}

void AddInputEvent(proto::Writer& trace, int64_t ts, uint32_t kind, const proto::Writer& body) {
  proto::Writer event;
  event.Message(kind, body);
  proto::Writer extensions;
  extensions.Message(pf::winscope_extensions::kAndroidInputEvent, event);
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 2);
  packet.Message(pf::trace_packet::kWinscopeExtensions, extensions);
  trace.Message(pf::trace::kPacket, packet);
}

proto::Writer AxisValue(int32_t axis, float value) {
  proto::Writer w;
  w.Int(pf::android_motion_event_axis_value::kAxis, axis);
  Float(w, pf::android_motion_event_axis_value::kValue, value);
  return w;
}

std::unique_ptr<LoadedTrace> Load(proto::Writer& trace) {
  auto t = LoadTraceBytes(trace.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(AndroidInputEvents, MotionKeyAndDispatchRowsWithArgs) {
  namespace me = pf::android_motion_event;
  namespace ke = pf::android_key_event;
  namespace wd = pf::android_window_input_dispatch_event;
  namespace dp = pf::android_window_input_dispatch_event_pointer;
  proto::Writer trace;

  proto::Writer pointer;
  pointer.Message(pf::android_motion_event_pointer::kAxisValue, AxisValue(0, 431.0f));
  pointer.Message(pf::android_motion_event_pointer::kAxisValue, AxisValue(1, 624.5f));
  pointer.Int(pf::android_motion_event_pointer::kPointerId, 0);
  proto::Writer motion;
  motion.Fixed32(me::kEventId, 330184796);
  motion.Int(me::kSource, 4098);
  motion.Int(me::kAction, 0);
  motion.Int(me::kDeviceId, 4);
  motion.Sint(me::kDisplayId, -1);
  motion.Message(me::kPointer, pointer);
  AddInputEvent(trace, 1000, ie::kDispatcherMotionEvent, motion);

  proto::Writer key;
  key.Fixed32(ke::kEventId, 759309047);
  key.Int(ke::kSource, 257);
  key.Int(ke::kAction, 1);
  key.Int(ke::kDeviceId, 2);
  key.Sint(ke::kDisplayId, 0);
  key.Int(ke::kKeyCode, 25);
  AddInputEvent(trace, 2000, ie::kDispatcherKeyEventRedacted, key);

  // The motion event goes to two windows; the second dispatch names no pointers.
  proto::Writer dispatched;
  dispatched.Int(dp::kPointerId, 0);
  Float(dispatched, dp::kXInDisplay, 1936.0f);
  dispatched.Message(dp::kAxisValueInWindow, AxisValue(8, -0.5f));
  proto::Writer to_first;
  to_first.Fixed32(wd::kEventId, 330184796);
  to_first.Int(wd::kVsyncId, 89110);
  to_first.Int(wd::kWindowId, 212);
  to_first.Message(wd::kDispatchedPointer, dispatched);
  to_first.Int(wd::kResolvedFlags, 128);
  AddInputEvent(trace, 1000, ie::kDispatcherWindowDispatchEvent, to_first);
  proto::Writer to_second;
  to_second.Fixed32(wd::kEventId, 330184796);
  to_second.Int(wd::kVsyncId, 0);
  to_second.Int(wd::kWindowId, 0);
  AddInputEvent(trace, 1000, ie::kDispatcherWindowDispatchEvent, to_second);

  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(t->db().Execute("INCLUDE PERFETTO MODULE android.input").ok());
  EXPECT_EQ(Rows(t->db(), "SELECT id, event_id, ts, source, action, device_id, display_id "
                          "FROM android_motion_events"),
            (Table{{"0", "330184796", "1000", "4098", "0", "4", "-1"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT event_id, ts, source, action, device_id, display_id, key_code "
                          "FROM android_key_events"),
            (Table{{"759309047", "2000", "257", "1", "2", "0", "25"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT id, event_id, vsync_id, window_id "
                          "FROM android_input_event_dispatch ORDER BY id"),
            (Table{{"0", "330184796", "89110", "212"}, {"1", "330184796", "0", "0"}}));

  // Repeated fields are indexed, nested messages joined with dots, floats are reals.
  EXPECT_EQ(Rows(t->db(), R"(
      SELECT a.key, a.flat_key, a.display_value FROM android_motion_events AS m
      JOIN args AS a USING (arg_set_id) WHERE a.key GLOB 'pointer*' ORDER BY a.key)"),
            (Table{{"pointer[0].axis_value[0].axis", "pointer.axis_value.axis", "0"},
                   {"pointer[0].axis_value[0].value", "pointer.axis_value.value", "431.0"},
                   {"pointer[0].axis_value[1].axis", "pointer.axis_value.axis", "1"},
                   {"pointer[0].axis_value[1].value", "pointer.axis_value.value", "624.5"},
                   {"pointer[0].pointer_id", "pointer.pointer_id", "0"}}));
  EXPECT_EQ(Rows(t->db(), R"(
      SELECT a.key, a.display_value FROM android_input_event_dispatch AS d
      JOIN args AS a USING (arg_set_id) WHERE d.id = 0 ORDER BY a.key)"),
            (Table{{"dispatched_pointer[0].axis_value_in_window[0].axis", "8"},
                   {"dispatched_pointer[0].axis_value_in_window[0].value", "-0.5"},
                   {"dispatched_pointer[0].pointer_id", "0"},
                   {"dispatched_pointer[0].x_in_display", "1936.0"},
                   {"event_id", "330184796"},
                   {"resolved_flags", "128"},
                   {"vsync_id", "89110"},
                   {"window_id", "212"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT extract_arg(arg_set_id, 'key_code') FROM android_key_events"),
            "25");
}

// InputDispatcher's monotonic event and down times are also given on the trace clock
// ("kernel_time", "down_time") once a clock snapshot relates the clocks; every row keeps its
// raw proto, base64-encoded.
TEST(AndroidInputEvents, MonotonicTimesOnTheTraceClockAndRawProtos) {
  namespace ke = pf::android_key_event;
  namespace me = pf::android_motion_event;
  proto::Writer trace;
  proto::Writer snapshot;
  for (const auto& [id, ts] : {std::pair<uint32_t, int64_t>{6, 5'000'000},  // BOOTTIME
                               {3, 1'000'000}}) {                           // MONOTONIC
    proto::Writer clock;
    clock.Varint(pf::clock_snapshot_clock::kClockId, id);
    clock.Varint(pf::clock_snapshot_clock::kTimestamp, static_cast<uint64_t>(ts));
    snapshot.Message(pf::clock_snapshot::kClocks, clock);
  }
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, 5'000'000);
  packet.Message(pf::trace_packet::kClockSnapshot, snapshot);
  trace.Message(pf::trace::kPacket, packet);

  proto::Writer key;
  key.Fixed32(ke::kEventId, 7);
  key.Int(ke::kEventTimeNanos, 1'200'000);
  key.Int(ke::kDownTimeNanos, 1'100'000);
  AddInputEvent(trace, 6'000'000, ie::kDispatcherKeyEvent, key);
  proto::Writer motion;
  motion.Fixed32(me::kEventId, 8);
  motion.Int(me::kEventTimeNanos, 1'300'000);  // no down time: no down_time arg
  AddInputEvent(trace, 6'000'000, ie::kDispatcherMotionEvent, motion);

  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(
      SELECT a.key, a.display_value FROM __intrinsic_android_key_events AS e
      JOIN args AS a USING (arg_set_id) ORDER BY a.id)"),
            (Table{{"event_id", "7"},
                   {"event_time_nanos", "1200000"},
                   {"down_time_nanos", "1100000"},
                   {"kernel_time", "5200000"},
                   {"down_time", "5100000"}}));
  EXPECT_EQ(Rows(t->db(), R"(
      SELECT a.key, a.display_value FROM __intrinsic_android_motion_events AS e
      JOIN args AS a USING (arg_set_id) WHERE a.key GLOB '*time*' ORDER BY a.id)"),
            (Table{{"event_time_nanos", "1300000"}, {"kernel_time", "5300000"}}));
  // The raw proto: a string-pool id, as trace_processor stores it, present on every row.
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM __intrinsic_android_key_events "
                            "WHERE base64_proto_id IS NOT NULL"),
            "1");
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM __intrinsic_android_motion_events "
                            "WHERE base64_proto_id IS NOT NULL"),
            "1");
}

TEST(AndroidInputEvents, MalformedEventIsCountedNotImported) {
  proto::Writer trace;
  proto::Writer broken;
  broken.Bytes(pf::android_motion_event::kPointer, std::string("\xff\xff\xff", 3));
  AddInputEvent(trace, 1000, ie::kDispatcherMotionEvent, broken);
  auto t = Load(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM __intrinsic_android_motion_events"), "0");
  EXPECT_EQ(Scalar(t->db(), "SELECT value FROM stats WHERE name = 'proto_decode_errors'"), "1");
}

}  // namespace
}  // namespace tw
