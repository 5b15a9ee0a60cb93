#pragma once
// What a packet decoder needs while importing a Perfetto trace: where to send events (the
// sorter), the string pool and stats (storage), clock conversion, and per-sequence state.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/translation_tables.h"
#include "libs/trace/importers/proto/clock_tracker.h"
#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/schema_pools.h"
#include "libs/trace/importers/proto/sequence_state.h"
#include "libs/trace/importers/proto/sorter_streams.h"
#include "libs/trace/importers/proto/trace_descriptor_pool.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

class TrackEventDecoder;

// Stores an arg set and returns its arg_set_id (the args tracker's AddArgSet), for the few
// descriptive rows an importer writes itself (cpu rows, import logs).
using ArgSetSink = std::function<std::optional<uint32_t>(const std::vector<Arg>&)>;

struct ImportContext {
  TraceStorage* storage = nullptr;
  EventSorter* sorter = nullptr;
  ClockTracker clocks;
  absl::flat_hash_map<uint32_t, std::unique_ptr<SequenceState>> sequences;
  TrackEventDecoder* track_events = nullptr;
  // uname release from system_info, so the sched tracker can pick the task-state layout.
  std::optional<std::string> kernel_release;
  // The descriptors this trace decodes typed payloads with: the embedded TrackEvent pool plus
  // what the trace's ExtensionDescriptor packets define (its own copy once it has any).
  TraceDescriptorPool descriptors{TrackEventDescriptors()};
  // FtraceStats.preserve_ftrace_buffer: the kernel's buffer from before tracing started is
  // part of the trace (FtraceDropWindow drops nothing for predating tracing).
  bool ftrace_buffer_preserved = false;
  // Where TranslationTable packets are recorded: the slice tracker's tables, which the loader
  // points this at (trackers run after the whole file is read). Null: the packets are skipped.
  TranslationTables* translations = nullptr;

  SequenceState& Sequence(uint32_t id) {
    auto& s = sequences[id];
    if (!s) s = std::make_unique<SequenceState>();
    return *s;
  }
  void Push(uint32_t queue, Event e) {
    e.machine = current_machine;
    // Only ftrace data goes to the per-cpu queues.
    e.from_ftrace = EventSorter::IsCpuQueue(queue) ? 1 : 0;
    sorter->Push(queue, streams.For(queue, e), std::move(e));
  }
  // trace_processor's sorter queues, which decide ties between events of equal timestamps.
  SorterStreams streams;
  // The machine of the packet being decoded (set per packet by the importer).
  uint8_t current_machine = 0;
  // The `machine` row (machine.id) for a TracePacket.machine_id. The host (raw id 0) is row 0,
  // and a remote machine gets the next row the first time one of its packets shows — except
  // that a trace whose first packets with data come from a remote machine (a machine's own
  // trace, recorded through a relay) is that machine's: it takes over row 0, relabelled with
  // its raw id, and the host's packets, if any follow, share it (as trace_processor adopts it).
  uint32_t MachineRow(uint32_t raw_machine_id) {
    MachineTable& m = storage->machine;
    if (m.row_count() == 0) m.Insert({.raw_id = 0});
    if (raw_machine_id == 0) return 0;
    if (!adoption_decided) {
      adoption_decided = true;
      if (!host_has_data) {
        m.raw_id.Set(0, raw_machine_id);
        machine_rows[raw_machine_id] = 0;
      }
    }
    auto [it, inserted] = machine_rows.try_emplace(raw_machine_id, m.row_count());
    if (inserted) m.Insert({.raw_id = raw_machine_id});
    return it->second;
  }
  // A packet of the host's own (no machine_id) was seen: a remote machine can no longer take
  // over the host's row.
  void NoteHostPacket() { host_has_data = true; }
  absl::flat_hash_map<uint32_t, uint32_t> machine_rows;  // raw machine id → machine row
  bool host_has_data = false;
  bool adoption_decided = false;
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
  uint32_t machine = 0;  // the machine that wrote the packet (machine.id; 0 is the host)
};

}  // namespace tw
