#pragma once
// What a packet decoder needs while importing a Perfetto trace: where to send events (the
// sorter), the string pool and stats (storage), clock conversion, and per-sequence state.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/clock_tracker.h"
#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/proto_enum_names.h"
#include "libs/trace/importers/proto/sequence_state.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

class TrackEventDecoder;

struct ImportContext {
  TraceStorage* storage = nullptr;
  EventSorter* sorter = nullptr;
  ClockTracker clocks;
  absl::flat_hash_map<uint32_t, std::unique_ptr<SequenceState>> sequences;
  TrackEventDecoder* track_events = nullptr;
  // uname release from system_info, so the sched tracker can pick the task-state layout.
  std::optional<std::string> kernel_release;
  // Enum value names from the trace's ExtensionDescriptor packets.
  ProtoEnumNames enum_names;

  SequenceState& Sequence(uint32_t id) {
    auto& s = sequences[id];
    if (!s) s = std::make_unique<SequenceState>();
    return *s;
  }
  void Push(uint32_t queue, Event e) { sorter->Push(queue, std::move(e)); }
  StringId Intern(std::string_view s) { return storage->Intern(s); }
};

// The packet being decoded: its (already converted) timestamp and sequence.
struct PacketContext {
  int64_t ts = 0;               // trace-clock time of the packet
  bool has_timestamp = false;
  uint32_t sequence_id = 0;
  SequenceState* sequence = nullptr;
  uint32_t timestamp_clock_id = 0;  // the clock the packet was stamped with (0 = default)
  std::optional<int32_t> trusted_pid;
};

}  // namespace tw
