#pragma once
// A remote machine's RemoteClockSync packet: rounds of clock readings taken on both ends of the
// relay between it (the client) and the host, and the offsets between their clocks that the
// rounds imply, so the remote machine's timestamps land on the host's timeline.

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw {

// One SyncedClocks message: per builtin clock id, what the host and the client read.
struct SyncedClockReadings {
  struct Pair {
    int64_t host = 0;    // 0: not read on the host in this message
    int64_t client = 0;  // 0: not read on the client in this message
  };
  std::map<uint32_t, Pair> clocks;
};

// The SyncedClocks of a RemoteClockSync message, in order; nullopt when it is malformed.
std::optional<std::vector<SyncedClockReadings>> ParseRemoteClockSync(const proto::Field& f);

// Per clock id, client time minus host time. The relay alternates snapshots (client, host,
// client, host, ...), so two consecutive messages (t1c, t1h) and (t2c, t2h) are two round trips:
// one the client started (its readings either side of the host's t1h) and one the host started
// (its readings either side of the client's t2c). Each gives an offset from the midpoint of its
// ends; a clock's offset is the mean of all of them. Consecutive messages whose client BOOTTIME
// readings are 30 s or more apart belong to different sync rounds and are not paired; a clock
// missing a reading in either message of a pair is left out of that pair.
std::map<uint32_t, int64_t> RemoteClockOffsets(const std::vector<SyncedClockReadings>& rounds);

}  // namespace tw
