// Clock conversion: timestamps on other clocks land on the trace clock through the snapshots, and
// the converter's small translation cache behaves as trace_processor's, so its misses
// (clock_sync_cache_miss) count the same.

#include "tests/trace/system_probes/test_packets.h"

namespace tw::testing {
namespace {

namespace tp = pf::trace_packet;
namespace cs = pf::clock_snapshot_clock;

constexpr uint32_t kRealtime = 1, kMonotonic = 3, kBoottime = 6;

proto::Writer Snapshot(int64_t boottime, int64_t monotonic, int64_t realtime) {
  proto::Writer snapshot;
  for (const auto& [id, ts] : {std::pair<uint32_t, int64_t>{kBoottime, boottime},
                               {kMonotonic, monotonic},
                               {kRealtime, realtime}}) {
    proto::Writer clock;
    clock.Varint(cs::kClockId, id);
    clock.Varint(cs::kTimestamp, static_cast<uint64_t>(ts));
    snapshot.Message(pf::clock_snapshot::kClocks, clock);
  }
  return snapshot;
}

// A trigger stamped on `clock`: it becomes a slice at its trace-clock time.
proto::Writer TriggerOn(uint32_t clock, int64_t ts, std::string_view name) {
  proto::Writer trigger;
  trigger.String(pf::trigger::kTriggerName, name);
  proto::Writer packet;
  packet.Varint(tp::kTimestamp, static_cast<uint64_t>(ts));
  packet.Varint(tp::kTimestampClockId, clock);
  packet.Varint(tp::kTrustedPacketSequenceId, 1);
  packet.Message(tp::kTrigger, trigger);
  return packet;
}

int64_t CacheMisses(LoadedTrace& t) {
  const Grid g = Rows(t, "SELECT value FROM stats WHERE name = 'clock_sync_cache_miss'");
  return g.size() == 1 ? std::stoll(g[0][0]) : -1;
}

TEST(ClockConversionTest, SnapshotsPrimeTheCacheAndLaterTimesMissOnce) {
  // MONOTONIC runs 1000 behind BOOTTIME until the second snapshot, 3000 behind after it.
  TraceBuilder b;
  b.Add(tp::kClockSnapshot, Snapshot(10000, 9000, 500000));  // converts MONOTONIC, REALTIME: 2
  b.AddRaw(TriggerOn(kMonotonic, 9500, "a"));                 // cached since the snapshot
  b.AddRaw(TriggerOn(kMonotonic, 9600, "b"));
  b.Add(tp::kClockSnapshot, Snapshot(20000, 17000, 510000));  // a new snapshot: 2 more
  b.AddRaw(TriggerOn(kMonotonic, 17500, "c"));                // cached: [17000, ∞)
  b.AddRaw(TriggerOn(kMonotonic, 9700, "d"));                 // before it: a miss, then cached
  b.AddRaw(TriggerOn(kMonotonic, 9800, "e"));
  b.AddRaw(TriggerOn(kRealtime, 505000, "f"));                // realtime, before snapshot 2: miss
  auto t = b.Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name, ts FROM slice ORDER BY ts"),
            (Grid{{"a", "10500"}, {"b", "10600"}, {"d", "10700"}, {"e", "10800"},
                  {"f", "15000"}, {"c", "20500"}}));
  EXPECT_EQ(CacheMisses(*t), 6);
}

TEST(ClockConversionTest, TraceClockTimesNeverMiss) {
  TraceBuilder b;
  b.Add(tp::kClockSnapshot, Snapshot(10000, 9000, 500000));
  for (int i = 0; i < 20; ++i) b.AddRaw(TriggerOn(kBoottime, 10000 + i, "boot"));
  auto t = b.Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(CacheMisses(*t), 2);  // the snapshot's own MONOTONIC and REALTIME
}

}  // namespace
}  // namespace tw::testing
