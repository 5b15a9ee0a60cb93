#pragma once
// Converts timestamps between clocks using the trace's ClockSnapshots, so every event lands on
// one timeline (the trace clock: BOOTTIME unless the trace says otherwise). Between snapshots
// the offset of the nearest earlier snapshot applies; before the first, the first one's.
// Conversion follows the shortest chain of snapshotted clock pairs (e.g. MONOTONIC → BOOTTIME).
// Every machine of a multi-machine trace has its own clocks: the clocks a packet names are those
// of the machine that wrote it (set_machine), the trace clock is the host's, and a remote
// machine's clocks reach it through the offsets of its remote_clock_sync (AddRemoteSync) or,
// lacking one, by assuming the machines' clocks of the same kind agree (as trace_processor does:
// aligned on REALTIME when both sides can reach it, else on the trace clock's kind).
// A conversion first looks in a small cache of recently used (clock pair, snapshot interval)
// translations, the way trace_processor's converter does (8 entries, pseudo-random eviction,
// emptied by every snapshot); the misses are counted as its clock_sync_cache_miss stat.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace tw {

// A clock id made unique across sequences and machines: sequence-scoped clocks (64..127) carry
// their sequence, and every clock its machine (machine.id; 0 is the host).
struct ClockKey {
  uint32_t clock_id = 0;
  uint32_t sequence_id = 0;  // 0 for global clocks
  uint32_t machine = 0;
  bool operator==(const ClockKey& o) const {
    return clock_id == o.clock_id && sequence_id == o.sequence_id && machine == o.machine;
  }
  bool operator<(const ClockKey& o) const {
    if (machine != o.machine) return machine < o.machine;
    return clock_id != o.clock_id ? clock_id < o.clock_id : sequence_id < o.sequence_id;
  }
  template <typename H>
  friend H AbslHashValue(H h, const ClockKey& k) {
    return H::combine(std::move(h), k.clock_id, k.sequence_id, k.machine);
  }
};

inline constexpr uint32_t kRealtimeClockId = 1;
inline constexpr uint32_t kBootTimeClock = 6;

class ClockTracker {
 public:
  struct SnapshotClock {
    ClockKey key;
    int64_t timestamp_ns;  // already scaled to ns
  };

  void set_trace_clock(uint32_t clock_id) { trace_clock_ = {clock_id, 0}; }
  ClockKey trace_clock() const { return trace_clock_; }
  bool has_snapshots() const { return !edges_.empty(); }
  // Whether `clock`, named by the current machine, is the trace clock itself.
  bool IsTraceClock(ClockKey clock) const { return Qualify(clock) == trace_clock_; }

  // The machine whose packet is being decoded: the clocks that AddSnapshot and ToTraceTime are
  // given are its clocks.
  void set_machine(uint32_t machine) { machine_ = machine; }
  uint32_t machine() const { return machine_; }

  // One reading of each of several clocks of the current machine, taken at the same instant.
  void AddSnapshot(const std::vector<SnapshotClock>& clocks);

  // Relates the current (remote) machine's `clock_id` to the host's: at the host reading
  // `host_ts` the remote clock read `host_ts + offset_ns`.
  void AddRemoteSync(uint32_t clock_id, int64_t host_ts, int64_t offset_ns);

  // `ts` on the current machine's `clock` → trace clock. nullopt when no chain of snapshots
  // links them.
  std::optional<int64_t> ToTraceTime(ClockKey clock, int64_t ts);
  // `ts` on `from` → `to` (e.g. trace time back to BOOTTIME). nullopt when no chain links them.
  std::optional<int64_t> Convert(ClockKey from, ClockKey to, int64_t ts);

  // Conversions between different clocks that the cache could not answer.
  int64_t cache_misses() const { return cache_misses_; }

 private:
  // A translation valid for source times in [min_ns, max_ns): the stretch between the two
  // snapshots around the converted time, on every hop of the path.
  struct CachedTranslation {
    bool valid = false;
    ClockKey from, to;
    int64_t min_ns = 0, max_ns = 0, translation_ns = 0;
  };

  struct Edge {
    std::vector<std::pair<int64_t, int64_t>> points;  // (src ts, dst ts), sorted by src
  };
  std::optional<std::vector<ClockKey>> FindPath(ClockKey from, ClockKey to);
  void AddEdges(const std::vector<SnapshotClock>& clocks);
  ClockKey Qualify(ClockKey clock) const {
    clock.machine = machine_;
    return clock;
  }
  // A remote machine's clock that no snapshot or sync relates to the trace clock: ties the
  // machine to the host by assuming their clocks of one kind agree. False when nothing does.
  bool BridgeToTraceClock(ClockKey clock);

  ClockKey trace_clock_{kBootTimeClock, 0};
  uint32_t machine_ = 0;
  std::map<std::pair<ClockKey, ClockKey>, Edge> edges_;
  std::map<ClockKey, std::vector<ClockKey>> neighbours_;
  absl::flat_hash_map<ClockKey, std::vector<ClockKey>> path_cache_;
  std::array<CachedTranslation, 8> cache_{};
  std::minstd_rand evict_;  // default seed: evictions repeat from run to run
  int64_t cache_misses_ = 0;
};

}  // namespace tw
