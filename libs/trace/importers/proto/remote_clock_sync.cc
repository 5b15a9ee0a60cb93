#include "libs/trace/importers/proto/remote_clock_sync.h"

#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

constexpr uint32_t kBootTime = 6;                             // BUILTIN_CLOCK_BOOTTIME
constexpr int64_t kSyncRoundInterval = 30LL * 1000000000LL;  // the relay syncs every 30 s

// The (clock id, timestamp) readings of a ClockSnapshot; false when it is malformed.
template <typename Sink>
bool ReadSnapshot(const proto::Field& snapshot, Sink sink) {
  proto::Decoder d(snapshot);
  proto::Field c;
  while (d.Next(&c)) {
    if (c.id != pf::clock_snapshot::kClocks || c.type != proto::kLengthDelimited) continue;
    uint32_t clock_id = 0;
    int64_t ts = 0;
    proto::Decoder cd(c);
    proto::Field x;
    while (cd.Next(&x)) {
      if (x.id == pf::clock_snapshot_clock::kClockId) clock_id = x.as_uint32();
      if (x.id == pf::clock_snapshot_clock::kTimestamp) ts = x.as_int64();
    }
    if (cd.error()) return false;
    sink(clock_id, ts);
  }
  return !d.error();
}

}  // namespace

std::optional<std::vector<SyncedClockReadings>> ParseRemoteClockSync(const proto::Field& f) {
  namespace sc = pf::remote_clock_sync_synced_clocks;
  std::vector<SyncedClockReadings> rounds;
  proto::Decoder d(f);
  proto::Field synced;
  while (d.Next(&synced)) {
    if (synced.id != pf::remote_clock_sync::kSyncedClocks) continue;
    if (synced.type != proto::kLengthDelimited) return std::nullopt;
    SyncedClockReadings& r = rounds.emplace_back();
    proto::Decoder sd(synced);
    proto::Field side;
    while (sd.Next(&side)) {
      if (side.type != proto::kLengthDelimited) continue;
      if (side.id == sc::kHostClocks &&
          !ReadSnapshot(side, [&](uint32_t id, int64_t ts) { r.clocks[id].host = ts; })) {
        return std::nullopt;
      }
      if (side.id == sc::kClientClocks &&
          !ReadSnapshot(side, [&](uint32_t id, int64_t ts) { r.clocks[id].client = ts; })) {
        return std::nullopt;
      }
    }
    if (sd.error()) return std::nullopt;
  }
  if (d.error()) return std::nullopt;
  return rounds;
}

std::map<uint32_t, int64_t> RemoteClockOffsets(const std::vector<SyncedClockReadings>& rounds) {
  auto client_boottime = [](const SyncedClockReadings& r) {
    auto it = r.clocks.find(kBootTime);
    return it == r.clocks.end() ? 0 : it->second.client;
  };
  std::map<uint32_t, std::pair<int64_t, int64_t>> sums;  // clock → (sum of offsets, count)
  for (size_t i = 1; i < rounds.size(); ++i) {
    const SyncedClockReadings& first = rounds[i - 1];
    const SyncedClockReadings& second = rounds[i];
    const int64_t apart = client_boottime(second) - client_boottime(first);
    if (apart < 0 || apart >= kSyncRoundInterval) continue;
    for (const auto& [clock, one] : first.clocks) {
      auto it = second.clocks.find(clock);
      if (it == second.clocks.end()) continue;
      const SyncedClockReadings::Pair& two = it->second;
      if (!one.host || !one.client || !two.host || !two.client) continue;
      // Client-started trip: the client read t1c and t2c around the host's t1h.
      const int64_t client_trip = (one.client + two.client) / 2 - one.host;
      // Host-started trip: the host read t1h and t2h around the client's t2c.
      const int64_t host_trip = two.client - (one.host + two.host) / 2;
      auto& [sum, count] = sums[clock];
      sum += client_trip + host_trip;
      count += 2;
    }
  }
  std::map<uint32_t, int64_t> offsets;
  for (const auto& [clock, s] : sums) offsets[clock] = s.first / s.second;
  return offsets;
}

}  // namespace tw
