#pragma once
// Per-sequence state of a Perfetto trace (trusted_packet_sequence_id): interned data,
// packet defaults, incremental clocks and legacy thread-descriptor timestamps. A sequence that
// loses its incremental state (a dropped packet without a reset) makes dependent packets
// unusable until the writer clears state again.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace tw {

class SequenceState {
 public:
  // Drops all interned data and defaults: the writer cleared its incremental state.
  void Clear() {
    ++generation_;
    interned_.clear();
    defaults_.reset();
    incremental_clock_values_.clear();
    valid_ = true;
    cleared_since_loss_ = true;
    track_event_timestamps_ = TrackEventTimes{};
  }

  bool incremental_state_valid() const { return valid_; }
  // Bumped each time the incremental state is cleared: what was interned before means nothing
  // after.
  uint32_t generation() const { return generation_; }
  void set_incremental_state_valid(bool v) {
    valid_ = v;
    if (!v) cleared_since_loss_ = false;
  }
  // Whether a packet flagged SEQ_NEEDS_INCREMENTAL_STATE can be used: the writer cleared its
  // state after the last loss. A sequence starts without (packets before its first clear may
  // refer to state written before the trace began), as trace_processor assumes.
  bool can_use_incremental_packets() const { return cleared_since_loss_; }

  // Interned messages by InternedData field number and iid. Bytes are copied: the packet
  // buffer they came from does not outlive the packet.
  void Intern(uint32_t field, uint64_t iid, std::string_view bytes) {
    interned_[{field, iid}] = std::string(bytes);
  }
  const std::string* Lookup(uint32_t field, uint64_t iid) const {
    auto it = interned_.find({field, iid});
    return it == interned_.end() ? nullptr : &it->second;
  }

  void set_defaults(std::string_view bytes) { defaults_ = std::string(bytes); }
  const std::optional<std::string>& defaults() const { return defaults_; }

  // Incremental clocks: a packet's timestamp on such a clock is a delta from the last one.
  int64_t* incremental_clock(uint32_t clock_id) { return &incremental_clock_values_[clock_id]; }
  void set_clock_incremental(uint32_t clock_id, bool inc, int64_t unit_ns) {
    clock_props_[clock_id] = {inc, unit_ns};
  }
  std::optional<std::pair<bool, int64_t>> clock_props(uint32_t clock_id) const {
    auto it = clock_props_.find(clock_id);
    if (it == clock_props_.end()) return std::nullopt;
    return it->second;
  }

  // Legacy ThreadDescriptor / TrackEvent delta timestamps (microsecond deltas).
  struct TrackEventTimes {
    bool valid = false;
    int64_t timestamp_ns = 0;
    int64_t thread_timestamp_ns = 0;
    int64_t thread_instruction_count = 0;
  };
  TrackEventTimes& track_event_times() { return track_event_timestamps_; }

  // The pid/tid of a legacy ThreadDescriptor on this sequence.
  std::optional<int32_t> pid;
  std::optional<int32_t> tid;

 private:
  struct PairHash {
    size_t operator()(const std::pair<uint32_t, uint64_t>& p) const {
      return std::hash<uint64_t>()(p.second * 1000003u ^ p.first);
    }
  };
  bool valid_ = true;
  bool cleared_since_loss_ = false;
  uint32_t generation_ = 0;
  absl::flat_hash_map<std::pair<uint32_t, uint64_t>, std::string> interned_;
  std::optional<std::string> defaults_;
  absl::flat_hash_map<uint32_t, int64_t> incremental_clock_values_;
  absl::flat_hash_map<uint32_t, std::pair<bool, int64_t>> clock_props_;
  TrackEventTimes track_event_timestamps_;
};

}  // namespace tw
