#pragma once
// Sets of interchangeable tracks for async slices (trace_processor's "track compressor"):
// slices that share an identity (same name under the same parent, the same legacy async id
// scope, ...) go on one track while they do not overlap; each concurrently open cookie gets its
// own track of the set. A track, once created, remembers its cookie until it is free again, so
// later slices with that cookie land on it.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace tw {

class AsyncTrackSets {
 public:
  // Creates the track at `index` of a set whose tracks share `group_id` (track_group_id).
  using Factory = std::function<uint32_t(uint32_t index, int64_t group_id)>;

  // The set identified by `key`, created (empty) on first use.
  uint32_t SetFor(const std::string& key);

  // A slice with `cookie` begins / ends / happens instantly: the track it goes on.
  // `saturating`: begins with the cookie do not nest (Android's legacy atrace async slices,
  // where a repeated begin is absorbed by the slice already open), so one end frees the track.
  uint32_t Begin(uint32_t set, int64_t cookie, const Factory& factory, bool saturating = false);
  uint32_t End(uint32_t set, int64_t cookie, const Factory& factory);
  uint32_t Instant(uint32_t set, int64_t cookie, const Factory& factory) {
    Begin(set, cookie, factory);
    return End(set, cookie, factory);
  }
  // A complete slice [ts, ts + dur): the first track of the set whose last such slice has
  // ended by `ts`, else a new one (trace_processor's scoped track compression).
  uint32_t Scoped(uint32_t set, int64_t ts, int64_t dur, const Factory& factory);
  // The set's first track (created for cookie 0 if the set is empty): the track that stands
  // for the whole set, e.g. as a parent of other tracks.
  uint32_t First(uint32_t set, const Factory& factory);

 private:
  struct Slot {
    int64_t cookie = 0;
    uint32_t nest_count = 0;
    bool scoped = false;  // holds complete slices (Scoped): free again from end_ts on
    int64_t end_ts = 0;
    std::optional<uint32_t> track;
  };
  struct Set {
    int64_t group_id = 0;
    std::vector<Slot> slots;
  };
  size_t SlotFor(Set& set, int64_t cookie);
  uint32_t TrackOf(Set& set, size_t slot, const Factory& factory);

  std::vector<Set> sets_;
  absl::flat_hash_map<std::string, uint32_t> index_;
};

}  // namespace tw
