#pragma once
// Rows of heapprofd's native heap profiles (HeapProfileData, decoded by the proto importer), as
// trace_processor makes them:
// - the frames and callstacks a profile defines become stack_profile rows when it defines them;
// - each (process, dump end, heap) gets one heap_profile row: the window the dump covers;
// - when a profile's last packet arrives, each sample becomes up to two
//   heap_profile_allocation rows at the dump's end: what was allocated since the previous dump
//   (count and size > 0) and what was freed (< 0; never for ART's heap, which reports no frees).
// heapprofd reports totals since the process was first profiled, per callstack. The deltas
// are kept per (process, callsite): when a new callstack id of a heap resolves to a callsite
// that already has totals (equal frames, or another heap of the process), its totals are
// offset by the callsite's, so the deltas stay increases. A total that goes down is malformed
// (heapprofd_malformed_packet) and writes nothing.

#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "libs/trace/events/events.h"

namespace tw {

struct TraceContext;

class HeapProfileTracker {
 public:
  explicit HeapProfileTracker(TraceContext* ctx) : ctx_(ctx) {}

  void OnEvent(int64_t ts, const HeapProfileData& data);

 private:
  struct Totals {
    int64_t count = 0, size = 0;
  };
  struct PendingAllocation {
    uint32_t pid = 0;
    StringId heap_name = kNullStringId;
    int64_t ts = 0;
    HeapProfileData::Sample sample;
  };
  // One sequence's profiles (reset when its incremental state is cleared).
  struct Sequence {
    uint32_t generation = 0;
    absl::flat_hash_map<uint64_t, uint32_t> callsites;  // the profile's callstack iid → callsite
    std::vector<PendingAllocation> pending;              // samples of the profile being read
    // Totals written so far per (upid, callsite): allocated (>= 0) and freed (<= 0).
    absl::flat_hash_map<std::pair<uint32_t, uint32_t>, Totals> allocated, freed;
    // The callsites each (upid, callstack iid, heap) has resolved to.
    absl::flat_hash_map<std::tuple<uint32_t, uint64_t, StringId>, absl::flat_hash_set<uint32_t>>
        resolved;
    // Per callstack iid: the offset its totals take after it resolved to a callsite anew.
    absl::flat_hash_map<uint64_t, Totals> allocated_offset, freed_offset;
  };
  Sequence& SequenceFor(const HeapProfileData& data);
  void AddDump(int64_t ts, Sequence& seq, const HeapProfileData::Dump& dump);
  void CommitAllocation(Sequence& seq, const PendingAllocation& a);

  TraceContext* ctx_;
  absl::flat_hash_map<uint32_t, Sequence> sequences_;  // by sequence id
  // heap_profile rows written: (upid, dump end, heap name).
  absl::flat_hash_set<std::tuple<uint32_t, int64_t, StringId>> profiles_;
  StringId unknown_heap_ = kNullStringId;
  StringId art_heap_ = kNullStringId;
};

}  // namespace tw
