// Android probe packets: logcat, the initial display state and the installed packages.

#include <gtest/gtest.h>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace tp = pf::trace_packet;

// A clock snapshot placing REALTIME 1,000,000,000 at BOOTTIME 1000.
proto::Writer ClockSnapshotPacket() {
  proto::Writer boottime, realtime;
  boottime.Varint(pf::clock_snapshot_clock::kClockId, pf::builtin_clock::kBoottime);
  boottime.Varint(pf::clock_snapshot_clock::kTimestamp, 1000);
  realtime.Varint(pf::clock_snapshot_clock::kClockId, pf::builtin_clock::kRealtime);
  realtime.Varint(pf::clock_snapshot_clock::kTimestamp, 1000000000);
  proto::Writer snapshot;
  snapshot.Message(pf::clock_snapshot::kClocks, boottime);
  snapshot.Message(pf::clock_snapshot::kClocks, realtime);
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, 1000);
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  packet.Message(pf::trace_packet::kClockSnapshot, snapshot);
  return packet;
}

TEST(AndroidProbesTest, LogLinesAtTheirRealtimeTimestamps) {
  namespace le = pf::android_log_packet_log_event;
  proto::Writer line;
  line.Varint(le::kPid, 10);
  line.Varint(le::kTid, 11);
  line.Varint(le::kTimestamp, 1000000500);  // REALTIME → BOOTTIME 1500
  line.String(le::kTag, "ActivityManager");
  line.Varint(le::kPrio, pf::android_log_priority::kWarn);
  line.String(le::kMessage, "hello");
  proto::Writer arg;
  arg.String(pf::android_log_packet_log_event_arg::kName, "count");
  arg.Int(pf::android_log_packet_log_event_arg::kIntValue, 3);
  line.Message(le::kArgs, arg);
  proto::Writer event_log;  // no message, no priority: args become the message, prio INFO
  event_log.Varint(le::kTid, 11);
  event_log.Varint(le::kTimestamp, 1000000200);
  event_log.Message(le::kArgs, arg);
  proto::Writer stats;
  stats.Varint(pf::android_log_packet_stats::kNumTotal, 2);
  stats.Varint(pf::android_log_packet_stats::kNumFailed, 1);
  proto::Writer log;
  log.Message(pf::android_log_packet::kEvents, line);
  log.Message(pf::android_log_packet::kEvents, event_log);
  log.Message(pf::android_log_packet::kStats, stats);
  auto t = TraceBuilder().AddRaw(ClockSnapshotPacket()).Add(tp::kAndroidLog, log, 2000).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT ts, prio, tag, msg FROM android_logs ORDER BY ts"),
            (Grid{{"1200", "4", "NULL", "count=3"},
                  {"1500", "5", "ActivityManager", "hello count=3"}}));
  EXPECT_EQ(Rows(*t,
                 "SELECT name, value FROM stats WHERE name GLOB 'android_log_num_*' "
                 "ORDER BY name"),
            (Grid{{"android_log_num_failed", "1"},
                  {"android_log_num_skipped", "0"},
                  {"android_log_num_total", "2"}}));
}

TEST(AndroidProbesTest, InitialDisplayStateStartsTheScreenStateCounter) {
  proto::Writer state;
  state.Int(pf::initial_display_state::kDisplayState, 2);
  state.Double(pf::initial_display_state::kBrightness, 0.5);
  auto t = TraceBuilder().Add(tp::kInitialDisplayState, state, 1).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT t.name, t.type, c.ts, c.value FROM counter_track t "
                 "JOIN counter c ON t.id = c.track_id"),
            (Grid{{"ScreenState", "screen_state", "1", "2"}}));
}

TEST(AndroidProbesTest, PackagesListFirstListingWins) {
  namespace pi = pf::packages_list_package_info;
  auto package = [](const char* name, uint64_t uid, int64_t version) {
    proto::Writer p;
    p.String(pi::kName, name);
    p.Varint(pi::kUid, uid);
    p.Int(pi::kVersionCode, version);
    p.Bool(pi::kDebuggable, true);
    return p;
  };
  proto::Writer first, second;
  first.Message(pf::packages_list::kPackages, package("com.google.android.gms", 10100, 1234));
  second.Message(pf::packages_list::kPackages, package("com.google.android.gms", 10100, 9));
  second.Message(pf::packages_list::kPackages, package("com.fake.package", 10123, 1));
  auto t = TraceBuilder().Add(tp::kPackagesList, first).Add(tp::kPackagesList, second).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT package_name, uid, debuggable, profileable_from_shell, version_code "
                 "FROM __intrinsic_package_list ORDER BY uid"),
            (Grid{{"com.google.android.gms", "10100", "1", "0", "1234"},
                  {"com.fake.package", "10123", "1", "0", "1"}}));
}

}  // namespace
}  // namespace tw
