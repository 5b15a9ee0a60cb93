// Multi-machine traces: a remote machine's timestamps land on the host's timeline through the
// offsets its RemoteClockSync implies (or unchanged when it has none), and its own clock
// snapshots relate its other clocks to them.

#include "libs/trace/importers/proto/remote_clock_sync.h"

#include "tests/trace/system_probes/test_packets.h"

namespace tw::testing {
namespace {

namespace tp = pf::trace_packet;
namespace cs = pf::clock_snapshot_clock;

constexpr uint32_t kMonotonic = 3, kBoottime = 6;

proto::Writer Snapshot(std::vector<std::pair<uint32_t, int64_t>> readings) {
  proto::Writer snapshot;
  for (const auto& [id, ts] : readings) {
    proto::Writer clock;
    clock.Varint(cs::kClockId, id);
    clock.Varint(cs::kTimestamp, static_cast<uint64_t>(ts));
    snapshot.Message(pf::clock_snapshot::kClocks, clock);
  }
  return snapshot;
}

// One SyncedClocks message: BOOTTIME as read by the client and by the host.
proto::Writer Synced(int64_t client_boottime, int64_t host_boottime) {
  proto::Writer synced;
  synced.Message(pf::remote_clock_sync_synced_clocks::kClientClocks,
                 Snapshot({{kBoottime, client_boottime}}));
  synced.Message(pf::remote_clock_sync_synced_clocks::kHostClocks,
                 Snapshot({{kBoottime, host_boottime}}));
  return synced;
}

proto::Writer OnMachine(uint32_t raw_machine_id, uint32_t field, const proto::Writer& payload) {
  proto::Writer packet;
  packet.Varint(tp::kTrustedPacketSequenceId, 1 + raw_machine_id);
  if (raw_machine_id) packet.Varint(tp::kMachineId, raw_machine_id);
  packet.Message(field, payload);
  return packet;
}

// A trigger (it becomes a slice) stamped `ts` on `clock` of machine `raw_machine_id`.
proto::Writer Trigger(uint32_t raw_machine_id, uint32_t clock, int64_t ts, std::string_view name) {
  proto::Writer trigger;
  trigger.String(pf::trigger::kTriggerName, name);
  proto::Writer packet = OnMachine(raw_machine_id, tp::kTrigger, trigger);
  packet.Varint(tp::kTimestamp, static_cast<uint64_t>(ts));
  packet.Varint(tp::kTimestampClockId, clock);
  return packet;
}

SyncedClockReadings Readings(int64_t client, int64_t host) {
  SyncedClockReadings r;
  r.clocks[kBoottime] = {host, client};
  return r;
}

TEST(RemoteClockSyncTest, OffsetIsTheMeanOfBothRoundTripsOfEachPair) {
  // Client read 100 and 300 around the host's 1100; the host read 1100 and 1400 around the
  // client's 300: offsets (100+300)/2-1100 = -900 and 300-(1100+1400)/2 = -950.
  EXPECT_EQ(RemoteClockOffsets({Readings(100, 1100), Readings(300, 1400)}),
            (std::map<uint32_t, int64_t>{{kBoottime, -925}}));
  // Three messages make two pairs; all four trips are averaged.
  EXPECT_EQ(RemoteClockOffsets({Readings(100, 1100), Readings(300, 1400), Readings(500, 1500)}),
            (std::map<uint32_t, int64_t>{{kBoottime, (-900 - 950 - 1000 - 950) / 4}}));
}

TEST(RemoteClockSyncTest, PairsAcrossSyncRoundsOrWithMissingReadingsAreSkipped) {
  const int64_t kMinute = 60'000'000'000;
  EXPECT_TRUE(RemoteClockOffsets({Readings(100, 1100), Readings(100 + kMinute, 1100 + kMinute)})
                  .empty());
  EXPECT_TRUE(RemoteClockOffsets({Readings(100, 1100)}).empty());
  EXPECT_TRUE(RemoteClockOffsets({Readings(100, 0), Readings(300, 1400)}).empty());
}

TEST(RemoteMachineClocksTest, SyncedMachineShiftsOntoTheHostTimeline) {
  proto::Writer sync;
  sync.Message(pf::remote_clock_sync::kSyncedClocks, Synced(10'000, 1'000'000));
  sync.Message(pf::remote_clock_sync::kSyncedClocks, Synced(10'000, 1'000'000));
  auto t = TraceBuilder()
               .AddRaw(Trigger(0, kBoottime, 2'000'000, "host"))
               .AddRaw(OnMachine(7, tp::kRemoteClockSync, sync))
               .AddRaw(Trigger(7, kBoottime, 2'000'000, "synced"))
               .AddRaw(Trigger(8, kBoottime, 2'000'000, "unsynced"))
               .Load();
  ASSERT_TRUE(t);
  // Machine 7's BOOTTIME runs 990000 behind the host's; machine 8 has no sync and is taken to
  // share the host's boot instant.
  EXPECT_EQ(Rows(*t, "SELECT name, ts FROM slice ORDER BY name"),
            (Grid{{"host", "2000000"}, {"synced", "2990000"}, {"unsynced", "2000000"}}));
}

TEST(RemoteMachineClocksTest, RemoteSnapshotsRelateItsOtherClocks) {
  proto::Writer sync;
  sync.Message(pf::remote_clock_sync::kSyncedClocks, Synced(5'000, 6'000));
  sync.Message(pf::remote_clock_sync::kSyncedClocks, Synced(5'000, 6'000));
  auto t = TraceBuilder()
               .AddRaw(OnMachine(0, tp::kClockSnapshot, Snapshot({{kBoottime, 0}, {kMonotonic, 0}})))
               .AddRaw(OnMachine(9, tp::kRemoteClockSync, sync))
               // The remote machine's MONOTONIC runs 2000 behind its own BOOTTIME.
               .AddRaw(OnMachine(9, tp::kClockSnapshot, Snapshot({{kBoottime, 3'000}, {kMonotonic, 1'000}})))
               .AddRaw(Trigger(9, kMonotonic, 4'000, "remote monotonic"))
               .AddRaw(Trigger(0, kMonotonic, 4'000, "host monotonic"))
               .Load();
  ASSERT_TRUE(t);
  // Remote MONOTONIC 4000 = remote BOOTTIME 6000 = host BOOTTIME 7000.
  EXPECT_EQ(Rows(*t, "SELECT name, ts FROM slice ORDER BY name"),
            (Grid{{"host monotonic", "4000"}, {"remote monotonic", "7000"}}));
  EXPECT_EQ(Rows(*t, "SELECT DISTINCT machine_id FROM clock_snapshot ORDER BY machine_id"),
            (Grid{{"0"}, {"1"}}));
}

}  // namespace
}  // namespace tw::testing
