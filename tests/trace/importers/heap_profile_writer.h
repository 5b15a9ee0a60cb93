#pragma once
// Writes heapprofd-shaped traces for tests: ProfilePackets with their own strings, mappings,
// frames and callstacks, process dumps with cumulative samples, and the clock snapshot that
// places CLOCK_MONOTONIC_COARSE (the dumps' clock) on the trace clock — the wire format of
// real heapprofd output, built with proto::Writer.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"

namespace tw::heap_testing {

// A frame of a profile: function name, binary (its mapping) and pc relative to it.
struct Frame {
  uint64_t iid = 0;
  std::string function;
  uint64_t mapping_iid = 0;
  uint64_t rel_pc = 0;
};

struct Mapping {
  uint64_t iid = 0;
  std::vector<std::string> path;  // components
  std::string build_id;           // raw bytes
};

struct Callstack {
  uint64_t iid = 0;
  std::vector<uint64_t> frames;  // outermost first
};

// Cumulative totals of one callstack since profiling began (or, with self_max, the live
// bytes at the heap's peak).
struct Sample {
  uint64_t callstack = 0;
  uint64_t allocated = 0, freed = 0, alloc_count = 0, free_count = 0;
  std::optional<uint64_t> self_max, self_max_count;
};

struct Dump {
  uint32_t pid = 0;
  uint64_t timestamp = 0;  // CLOCK_MONOTONIC_COARSE
  std::optional<uint64_t> start_timestamp;
  std::string heap_name;  // "" writes none
  uint64_t orig_sampling_interval_bytes = 0, sampling_interval_bytes = 0;
  bool rejected_concurrent = false;
  std::vector<Sample> samples;
};

struct Profile {
  uint64_t index = 0;
  bool continued = false;
  std::vector<Mapping> mappings;
  std::vector<Frame> frames;
  std::vector<Callstack> callstacks;
  std::vector<Dump> dumps;
};

class HeapProfileWriter {
 public:
  // CLOCK_MONOTONIC_COARSE reads `coarse` when BOOTTIME (the trace clock) reads `boottime`.
  void ClockSnapshot(int64_t boottime, int64_t coarse) {
    namespace cs = pf::clock_snapshot;
    namespace c = pf::clock_snapshot_clock;
    proto::Writer snapshot;
    for (auto [id, ts] : {std::pair<uint32_t, int64_t>{pf::builtin_clock::kBoottime, boottime},
                          {pf::builtin_clock::kMonotonicCoarse, coarse}}) {
      proto::Writer clock;
      clock.Varint(c::kClockId, id);
      clock.Varint(c::kTimestamp, static_cast<uint64_t>(ts));
      snapshot.Message(cs::kClocks, clock);
    }
    proto::Writer packet;
    packet.Message(pf::trace_packet::kClockSnapshot, snapshot);
    trace_.Message(pf::trace::kPacket, packet);
  }

  void Process(uint32_t pid, std::string_view cmdline) {
    proto::Writer process;
    process.Varint(pf::process_tree_process::kPid, pid);
    process.String(pf::process_tree_process::kCmdline, cmdline);
    proto::Writer tree;
    tree.Message(pf::process_tree::kProcesses, process);
    proto::Writer packet;
    packet.Message(pf::trace_packet::kProcessTree, tree);
    trace_.Message(pf::trace::kPacket, packet);
  }

  // A ProfilePacket on sequence `seq` at trace time `ts`; `clear` marks the sequence's
  // incremental state cleared (heapprofd's first packet).
  void Add(uint32_t seq, int64_t ts, const Profile& p, bool clear = false) {
    namespace pp = pf::profile_packet;
    proto::Writer profile;
    for (const Mapping& m : p.mappings) {
      std::vector<uint64_t> path_ids;
      for (const std::string& part : m.path) path_ids.push_back(Str(&profile, part));
      const uint64_t build_id = Str(&profile, m.build_id);
      proto::Writer mapping;
      mapping.Varint(pf::profile_mapping::kIid, m.iid);
      mapping.Varint(pf::profile_mapping::kBuildId, build_id);
      if (!path_ids.empty()) mapping.Packed(pf::profile_mapping::kPathStringIds, path_ids);
      profile.Message(pp::kMappings, mapping);
    }
    for (const Frame& f : p.frames) {
      const uint64_t name = Str(&profile, f.function);
      proto::Writer frame;
      frame.Varint(pf::profile_frame::kIid, f.iid);
      frame.Varint(pf::profile_frame::kFunctionNameId, name);
      frame.Varint(pf::profile_frame::kMappingId, f.mapping_iid);
      frame.Varint(pf::profile_frame::kRelPc, f.rel_pc);
      profile.Message(pp::kFrames, frame);
    }
    for (const Callstack& c : p.callstacks) {
      proto::Writer callstack;
      callstack.Varint(pf::profile_callstack::kIid, c.iid);
      if (!c.frames.empty()) callstack.Packed(pf::profile_callstack::kFrameIds, c.frames);
      profile.Message(pp::kCallstacks, callstack);
    }
    for (const Dump& d : p.dumps) {
      namespace phs = pf::profile_process_heap_samples;
      namespace hs = pf::profile_heap_sample;
      proto::Writer dump;
      dump.Varint(phs::kPid, d.pid);
      dump.Varint(phs::kTimestamp, d.timestamp);
      if (d.start_timestamp) dump.Varint(phs::kStartTimestamp, *d.start_timestamp);
      if (!d.heap_name.empty()) dump.String(phs::kHeapName, d.heap_name);
      if (d.orig_sampling_interval_bytes) {
        dump.Varint(phs::kOrigSamplingIntervalBytes, d.orig_sampling_interval_bytes);
        dump.Varint(phs::kSamplingIntervalBytes, d.sampling_interval_bytes);
      }
      if (d.rejected_concurrent) dump.Varint(phs::kRejectedConcurrent, 1);
      for (const Sample& s : d.samples) {
        proto::Writer sample;
        sample.Varint(hs::kCallstackId, s.callstack);
        if (s.self_max) {
          sample.Varint(hs::kSelfMax, *s.self_max);
          if (s.self_max_count) sample.Varint(hs::kSelfMaxCount, *s.self_max_count);
        } else {
          sample.Varint(hs::kSelfAllocated, s.allocated);
          sample.Varint(hs::kSelfFreed, s.freed);
          sample.Varint(hs::kAllocCount, s.alloc_count);
          sample.Varint(hs::kFreeCount, s.free_count);
        }
        dump.Message(phs::kSamples, sample);
      }
      profile.Message(pp::kProcessDumps, dump);
    }
    if (p.continued) profile.Varint(pp::kContinued, 1);
    profile.Varint(pp::kIndex, p.index);
    proto::Writer packet;
    packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, seq);
    if (clear) packet.Varint(pf::trace_packet::kIncrementalStateCleared, 1);
    packet.Message(pf::trace_packet::kProfilePacket, profile);
    trace_.Message(pf::trace::kPacket, packet);
  }

  std::string Take() { return trace_.Take(); }

 private:
  // Adds `s` to the packet's strings; returns its id (0 is always the empty string).
  uint64_t Str(proto::Writer* profile, std::string_view s) {
    if (s.empty()) return 0;
    const uint64_t iid = ++next_string_;
    proto::Writer str;
    str.Varint(pf::interned_string::kIid, iid);
    str.String(pf::interned_string::kStr, s);
    profile->Message(pf::profile_packet::kStrings, str);
    return iid;
  }

  proto::Writer trace_;
  uint64_t next_string_ = 0;
};

}  // namespace tw::heap_testing
