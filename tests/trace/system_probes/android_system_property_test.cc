// AndroidSystemProperty packets (debug.tracing.* properties) and the atrace markers that
// report the same state share their tracks: one DeviceStateChanged instant track, one
// ScreenState counter, one battery_stats.<x> counter per key.

#include <gtest/gtest.h>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace tp = pf::trace_packet;

proto::Writer Properties(std::initializer_list<std::pair<std::string_view, std::string_view>> kv) {
  proto::Writer props;
  for (const auto& [name, value] : kv) {
    proto::Writer v;
    v.String(pf::android_system_property_value::kName, name);
    v.String(pf::android_system_property_value::kValue, value);
    props.Message(pf::android_system_property::kValues, v);
  }
  return props;
}

// An ftrace bundle with one atrace marker written by pid 42.
proto::Writer AtracePrint(int64_t ts, std::string_view marker) {
  proto::Writer print;
  print.String(pf::print_ftrace_event::kBuf, marker);
  proto::Writer event;
  event.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(ts));
  event.Varint(pf::ftrace_event::kPid, 42);
  event.Message(pf::ftrace_event::kPrint, print);
  proto::Writer bundle;
  bundle.Varint(pf::ftrace_event_bundle::kCpu, 0);
  bundle.Message(pf::ftrace_event_bundle::kEvent, event);
  return bundle;
}

TEST(AndroidSystemPropertyTest, SharesTracksWithTheAtraceMarkersOfTheSameState) {
  auto t = TraceBuilder()
               .Add(tp::kAndroidSystemProperty,
                    Properties({{"debug.tracing.device_state", "folded"},
                                {"debug.tracing.screen_state", "1"},
                                {"debug.tracing.battery_stats.audio", "1"}}),
                    100)
               .Add(tp::kFtraceEvents, AtracePrint(200, "N|42|DeviceStateChanged|unfolded"))
               .Add(tp::kFtraceEvents, AtracePrint(300, "C|42|ScreenState|2"))
               .Add(tp::kFtraceEvents, AtracePrint(400, "C|42|battery_stats.audio|0"))
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, s.ts, s.dur, s.name FROM slice s "
                     "JOIN track t ON s.track_id = t.id ORDER BY s.ts"),
            (Grid{{"DeviceStateChanged", "100", "0", "folded"},
                  {"DeviceStateChanged", "200", "0", "unfolded"}}));
  EXPECT_EQ(Rows(*t, "SELECT t.name, t.type, c.ts, c.value FROM counter c "
                     "JOIN counter_track t ON c.track_id = t.id ORDER BY t.name, c.ts"),
            (Grid{{"ScreenState", "screen_state", "100", "1"},
                  {"ScreenState", "screen_state", "300", "2"},
                  {"battery_stats.audio", "battery_stats", "100", "1"},
                  {"battery_stats.audio", "battery_stats", "400", "0"}}));
}

TEST(AndroidSystemPropertyTest, NamedCountersMetadataAndIgnoredValues) {
  auto t = TraceBuilder()
               .Add(tp::kAndroidSystemProperty,
                    Properties({{"debug.tracing.mcc", "310"},
                                {"debug.tracing.plug_type", "2"},
                                {"debug.tracing.battery_status", "3"},
                                {"debug.tracing.profile_system_server", "1"},
                                {"debug.tracing.screen_state", "on"},  // not a number
                                {"debug.tracing.unknown_thing", "5"},  // not one trace_processor reads
                                {"persist.sys.other", "7"}}),
                    10)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, t.type, c.value FROM counter c "
                     "JOIN counter_track t ON c.track_id = t.id ORDER BY t.name"),
            (Grid{{"BatteryStatus", "sysprop_counter", "3"},
                  {"PlugType", "sysprop_counter", "2"},
                  {"mcc", "sysprop_counter", "310"}}));
  EXPECT_EQ(Rows(*t, "SELECT int_value FROM metadata WHERE name = 'android_profile_system_server'"),
            (Grid{{"1"}}));
}

}  // namespace
}  // namespace tw
