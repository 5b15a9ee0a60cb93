#pragma once
// What the trace's TrackDescriptors say about each track uuid. Descriptors are not time-ordered
// data: an event may refer to a track whose descriptor comes later in the file (or with a later
// timestamp), so the importer records every descriptor here as soon as it decodes it, before
// sorting, and the tracker reads the final picture when it first needs a track (as
// trace_processor's tokenizer "reserves" tracks before its parser resolves them).
//
// Shared by the proto importer (writer) and the track-event tracker (reader); it holds decoded
// facts only, no table rows.

#include <cstdint>
#include <optional>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "libs/trace/storage/string_pool.h"

namespace tw {

// Keeps sandboxed (per-process) tids of different processes apart, as trace_processor builds
// them: the pid in the high 32 bits. (With tid -1, the result is -1: trace_processor's quirk
// for "any thread of this pid", kept so ids match.)
inline int64_t SyntheticTid(int64_t tid, int64_t pid) {
  return static_cast<int64_t>((static_cast<uint64_t>(pid) << 32) | static_cast<uint64_t>(tid));
}
inline bool IsSyntheticTid(int64_t tid) {
  return (static_cast<uint64_t>(tid) & 0xffffffff00000000ull) != 0;
}

// One uuid's descriptor, as far as track identity and naming go.
struct TrackReservation {
  enum class ChildOrdering : uint8_t { kUnknown, kLexicographic, kChronological, kExplicit };
  // How tracks with the same parent merge (SiblingMergeBehavior); kByName is the default.
  enum class MergeBehavior : uint8_t { kByName = 0, kNone = 1, kByKey = 2 };

  struct Counter {
    StringId category = kNullStringId;
    int64_t unit_multiplier = 1;
    bool is_incremental = false;
    StringId unit = kNullStringId;
    StringId builtin_type = kNullStringId;  // "thread_time" / "thread_instruction_count"
    StringId y_axis_share_key = kNullStringId;

    bool SameTrackAs(const Counter& o) const {
      return std::tie(category, unit_multiplier, is_incremental, builtin_type,
                      y_axis_share_key) == std::tie(o.category, o.unit_multiplier,
                                                    o.is_incremental, o.builtin_type,
                                                    o.y_axis_share_key);
    }
  };

  uint64_t parent_uuid = 0;
  std::optional<int64_t> pid;
  std::optional<int64_t> tid;
  int64_t min_timestamp = 0;
  StringId name = kNullStringId;
  StringId description = kNullStringId;
  bool use_separate_track = false;  // disallow_merging_with_system_tracks
  bool use_synthetic_tid = false;   // chrome_thread.is_sandboxed_tid
  bool is_state = false;
  std::optional<Counter> counter;   // set: a counter track
  ChildOrdering ordering = ChildOrdering::kUnknown;
  bool process_ordering_explicit = false;
  bool thread_ordering_explicit = false;
  std::optional<int32_t> sibling_order_rank;
  MergeBehavior merge = MergeBehavior::kByName;
  StringId merge_key = kNullStringId;

  bool is_counter() const { return counter.has_value(); }

  // Whether `o` describes the same track (a repeated descriptor), as opposed to a conflicting
  // reuse of the uuid. Names and ordering hints may differ between repeats.
  bool SameTrackAs(const TrackReservation& o) const {
    if (counter.has_value() != o.counter.has_value()) return false;
    if (counter && !counter->SameTrackAs(*o.counter)) return false;
    return std::tie(parent_uuid, pid, tid, is_state, merge, merge_key) ==
           std::tie(o.parent_uuid, o.pid, o.tid, o.is_state, o.merge, o.merge_key);
  }
};

class TrackDescriptorRegistry {
 public:
  static constexpr uint64_t kDefaultTrackUuid = 0;

  enum class ReserveResult { kAdded, kMerged, kConflict, kDefaultTrackWithParent };

  // Records a descriptor. A repeat of a known uuid only fills in a missing name (or renames a
  // track that never merges with siblings) and widens min_timestamp; a different track under
  // the same uuid is rejected.
  ReserveResult Reserve(uint64_t uuid, const TrackReservation& r) {
    if (uuid == kDefaultTrackUuid && r.parent_uuid != 0) {
      return ReserveResult::kDefaultTrackWithParent;
    }
    auto [it, inserted] = tracks_.try_emplace(uuid, r);
    if (inserted) return ReserveResult::kAdded;
    TrackReservation& known = it->second;
    if (!known.SameTrackAs(r)) return ReserveResult::kConflict;
    if (r.name != kNullStringId &&
        (known.name == kNullStringId || r.merge == TrackReservation::MergeBehavior::kNone)) {
      known.name = r.name;
    }
    if (r.min_timestamp < known.min_timestamp) known.min_timestamp = r.min_timestamp;
    return ReserveResult::kMerged;
  }

  const TrackReservation* Find(uint64_t uuid) const {
    auto it = tracks_.find(uuid);
    return it == tracks_.end() ? nullptr : &it->second;
  }
  TrackReservation* FindMutable(uint64_t uuid) {
    auto it = tracks_.find(uuid);
    return it == tracks_.end() ? nullptr : &it->second;
  }

  // Sequences that declared `first_packet_on_sequence`: tracks first used from them get the
  // `has_first_packet_on_sequence` source arg (the UI trusts their data from the start).
  void MarkFirstPacketOnSequence(uint32_t sequence_id) {
    first_packet_sequences_.insert(sequence_id);
  }
  bool HasFirstPacketOnSequence(uint32_t sequence_id) const {
    return first_packet_sequences_.contains(sequence_id);
  }

 private:
  absl::flat_hash_map<uint64_t, TrackReservation> tracks_;
  absl::flat_hash_set<uint32_t> first_packet_sequences_;
};

}  // namespace tw
