#pragma once
// Writes traced_perf-shaped traces for tests: a sequence's PerfSampleDefaults (timebase and
// follower counters), its interned callstacks, and PerfSample packets — the wire format of
// real traced_perf output, built with proto::Writer.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"

namespace tw::perf_testing {

// A counter of the stream: a PerfEvents.Counter value, or a tracepoint "group:name".
struct PerfEvent {
  std::optional<uint64_t> counter;
  std::string tracepoint;
  std::string name;               // the config's explicit name, if any
  std::vector<uint64_t> modifiers;  // EventModifier values
};

struct Sample {
  int64_t ts = 0;
  std::optional<uint32_t> cpu;
  uint32_t pid = 0, tid = 0;
  uint64_t cpu_mode = 0;
  std::optional<uint64_t> timebase_count;
  std::vector<uint64_t> follower_counts;
  std::optional<uint64_t> callstack_iid;
  std::optional<uint64_t> unwind_error;
  uint64_t kernel_records_lost = 0;
  std::optional<uint64_t> skipped_reason;
  std::optional<uint64_t> producer_stop_reason;  // set: a producer_event record
};

// A frame: function name, binary path and pc relative to it.
struct Frame {
  std::string function, binary;
  uint64_t rel_pc = 0;
};

// A PerfEvents.Timebase (timebase) or FollowerEvent message for `e`. A timebase takes an
// optional sampling frequency, which traced_perf always sets; it plays no part in the name.
inline proto::Writer EncodePerfEvent(const PerfEvent& e, bool timebase,
                                     std::optional<uint64_t> frequency = std::nullopt) {
  namespace tb = pf::perf_events_timebase;
  namespace fe = pf::perf_follower_event;
  proto::Writer w;
  if (timebase && frequency) w.Varint(tb::kFrequency, *frequency);
  if (e.counter) w.Varint(timebase ? tb::kCounter : fe::kCounter, *e.counter);
  if (!e.tracepoint.empty()) {
    proto::Writer tp;
    tp.String(pf::perf_events_tracepoint::kName, e.tracepoint);
    w.Message(timebase ? tb::kTracepoint : fe::kTracepoint, tp);
  }
  if (!e.name.empty()) w.String(timebase ? tb::kName : fe::kName, e.name);
  for (uint64_t m : e.modifiers) w.Varint(timebase ? tb::kModifiers : fe::kModifiers, m);
  return w;
}

class PerfTraceWriter {
 public:
  // Clears the sequence's state and sets its defaults (no timebase: an old producer).
  void Defaults(uint32_t seq, std::optional<PerfEvent> timebase,
                const std::vector<PerfEvent>& followers, uint32_t shard_count = 0,
                uint32_t chosen_shard = 0) {
    proto::Writer perf_defaults;
    if (timebase) {
      perf_defaults.Message(pf::perf_sample_defaults::kTimebase,
                            EncodePerfEvent(*timebase, true, /*frequency=*/100));
    }
    for (const PerfEvent& f : followers) {
      perf_defaults.Message(pf::perf_sample_defaults::kFollowers, EncodePerfEvent(f, false));
    }
    if (shard_count) {
      perf_defaults.Varint(pf::perf_sample_defaults::kProcessShardCount, shard_count);
      perf_defaults.Varint(pf::perf_sample_defaults::kChosenProcessShard, chosen_shard);
    }
    proto::Writer defaults;
    if (timebase || !followers.empty()) {
      defaults.Message(pf::trace_packet_defaults::kPerfSampleDefaults, perf_defaults);
    }
    proto::Writer packet;
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, seq);
    packet.Varint(pf::trace_packet::kSequenceFlags, pf::sequence_flags::kIncrementalStateCleared);
    packet.Message(pf::trace_packet::kTracePacketDefaults, defaults);
    trace_.Message(pf::trace::kPacket, packet);
  }

  // Interns callstack `iid` on the sequence, made of `frames` (outermost first); frames,
  // functions, binaries and mappings get iids of their own.
  void Callstack(uint32_t seq, uint64_t iid, const std::vector<Frame>& frames) {
    namespace id = pf::interned_data;
    proto::Writer interned;
    std::vector<uint64_t> frame_iids;
    for (const Frame& f : frames) {
      const uint64_t n = ++next_iid_;
      interned.Message(id::kFunctionNames, Str(n, f.function));
      interned.Message(id::kMappingPaths, Str(n, f.binary));
      interned.Message(id::kBuildIds, Str(n, ""));
      proto::Writer mapping;
      mapping.Varint(pf::profile_mapping::kIid, n);
      mapping.Varint(pf::profile_mapping::kBuildId, n);
      mapping.Packed(pf::profile_mapping::kPathStringIds, std::vector<uint64_t>{n});
      interned.Message(id::kMappings, mapping);
      proto::Writer frame;
      frame.Varint(pf::profile_frame::kIid, n);
      frame.Varint(pf::profile_frame::kFunctionNameId, n);
      frame.Varint(pf::profile_frame::kMappingId, n);
      frame.Varint(pf::profile_frame::kRelPc, f.rel_pc);
      interned.Message(id::kFrames, frame);
      frame_iids.push_back(n);
    }
    proto::Writer callstack;
    callstack.Varint(pf::profile_callstack::kIid, iid);
    if (!frame_iids.empty()) callstack.Packed(pf::profile_callstack::kFrameIds, frame_iids);
    interned.Message(id::kCallstacks, callstack);
    proto::Writer packet;
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, seq);
    packet.Varint(pf::trace_packet::kSequenceFlags, pf::sequence_flags::kNeedsIncrementalState);
    packet.Message(pf::trace_packet::kInternedData, interned);
    trace_.Message(pf::trace::kPacket, packet);
  }

  void Add(uint32_t seq, const Sample& s) {
    namespace ps = pf::perf_sample;
    proto::Writer sample;
    if (s.cpu) sample.Varint(ps::kCpu, *s.cpu);
    sample.Varint(ps::kPid, s.pid);
    sample.Varint(ps::kTid, s.tid);
    if (s.cpu_mode) sample.Varint(ps::kCpuMode, s.cpu_mode);
    if (s.timebase_count) sample.Varint(ps::kTimebaseCount, *s.timebase_count);
    if (!s.follower_counts.empty()) sample.Packed(ps::kFollowerCounts, s.follower_counts);
    if (s.callstack_iid) sample.Varint(ps::kCallstackIid, *s.callstack_iid);
    if (s.unwind_error) sample.Varint(ps::kUnwindError, *s.unwind_error);
    if (s.kernel_records_lost) sample.Varint(ps::kKernelRecordsLost, s.kernel_records_lost);
    if (s.skipped_reason) sample.Varint(ps::kSampleSkippedReason, *s.skipped_reason);
    if (s.producer_stop_reason) {
      proto::Writer event;
      event.Varint(pf::perf_sample_producer_event::kSourceStopReason, *s.producer_stop_reason);
      sample.Message(ps::kProducerEvent, event);
    }
    proto::Writer packet;
    packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(s.ts));
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, seq);
    packet.Varint(pf::trace_packet::kSequenceFlags, pf::sequence_flags::kNeedsIncrementalState);
    packet.Message(pf::trace_packet::kPerfSample, sample);
    trace_.Message(pf::trace::kPacket, packet);
  }

  std::string Take() { return trace_.Take(); }

 private:
  static proto::Writer Str(uint64_t iid, std::string_view s) {
    proto::Writer w;
    w.Varint(pf::interned_string::kIid, iid);
    w.String(pf::interned_string::kStr, s);
    return w;
  }

  proto::Writer trace_;
  uint64_t next_iid_ = 0;
};

}  // namespace tw::perf_testing
