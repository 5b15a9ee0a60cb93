#include "libs/trace/trackers/heap_profile_tracker.h"

#include "libs/trace/trackers/trace_context.h"

namespace tw {

HeapProfileTracker::Sequence& HeapProfileTracker::SequenceFor(const HeapProfileData& data) {
  Sequence& seq = sequences_[data.sequence_id];
  if (seq.generation != data.generation) {
    // The writer cleared its incremental state: its callstack ids and totals start over.
    seq = Sequence{};
    seq.generation = data.generation;
  }
  return seq;
}

void HeapProfileTracker::AddDump(int64_t ts, Sequence& seq, const HeapProfileData::Dump& dump) {
  TraceStorage* storage = ctx_->storage;
  const int64_t pid = dump.pid;
  storage->SetIndexedStat("heapprofd_last_profile_timestamp", pid, ts);

  const uint32_t upid = ctx_->processes.GetOrCreateProcess(pid);
  // The continued packets of one dump repeat its header: one row per (process, dump, heap).
  if (profiles_.insert({upid, dump.window_end, dump.heap_name}).second) {
    storage->heap_profile.Insert({.ts = dump.window_start,
                                  .ts_end = dump.window_end,
                                  .dur = dump.window_end - dump.window_start,
                                  .upid = upid,
                                  .heap_name = dump.heap_name});
  }

  if (dump.disconnected) storage->IncrementIndexedStat("heapprofd_client_disconnected", pid);
  if (dump.buffer_corrupted) storage->IncrementIndexedStat("heapprofd_buffer_corrupted", pid);
  if (dump.buffer_overran) storage->IncrementIndexedStat("heapprofd_buffer_overran", pid);
  if (dump.client_error) {
    storage->SetIndexedStat("heapprofd_client_error", pid,
                            static_cast<int64_t>(dump.client_error));
  }
  if (dump.rejected_concurrent) storage->IncrementIndexedStat("heapprofd_rejected_concurrent", pid);
  if (dump.hit_guardrail) storage->IncrementIndexedStat("heapprofd_hit_guardrail", pid);
  if (dump.orig_sampling_interval_bytes) {
    // How far heapprofd moved the sampling interval from what the config asked for.
    storage->SetIndexedStat("heapprofd_sampling_interval_adjusted", pid,
                            static_cast<int64_t>(dump.sampling_interval_bytes) -
                                static_cast<int64_t>(dump.orig_sampling_interval_bytes));
  }
  storage->IncrementIndexedStat("heapprofd_unwind_time_us", pid,
                                static_cast<int64_t>(dump.unwinding_time_us));
  storage->IncrementIndexedStat("heapprofd_unwind_samples", pid,
                                static_cast<int64_t>(dump.heap_samples));
  storage->IncrementIndexedStat("heapprofd_client_spinlock_blocked", pid,
                                static_cast<int64_t>(dump.client_spinlock_blocked_us));

  // Allocations need a heap: older producers named none, and profiled only the native heap.
  if (unknown_heap_ == kNullStringId) unknown_heap_ = storage->Intern("unknown");
  const StringId heap = dump.heap_name == kNullStringId ? unknown_heap_ : dump.heap_name;
  for (const HeapProfileData::Sample& sample : dump.samples) {
    seq.pending.push_back({.pid = dump.pid, .heap_name = heap, .ts = dump.window_end,
                           .sample = sample});
  }
}

void HeapProfileTracker::CommitAllocation(Sequence& seq, const PendingAllocation& a) {
  TraceStorage* storage = ctx_->storage;
  const uint32_t upid = ctx_->processes.GetOrCreateProcess(a.pid);
  const HeapProfileData::Sample& s = a.sample;
  std::optional<uint32_t> callsite;
  if (auto it = seq.callsites.find(s.callstack_iid); it != seq.callsites.end()) {
    callsite = it->second;
  } else if (s.interned_callstack) {
    callsite = ctx_->callstacks.InternCallstack(*s.interned_callstack);
  }
  if (!callsite) return;  // counted when decoded

  Totals allocated{static_cast<int64_t>(s.alloc_count), static_cast<int64_t>(s.self_allocated)};
  Totals freed{-static_cast<int64_t>(s.free_count), -static_cast<int64_t>(s.self_freed)};
  Totals& prev_allocated = seq.allocated[{upid, *callsite}];
  Totals& prev_freed = seq.freed[{upid, *callsite}];
  if (seq.resolved[{upid, s.callstack_iid, a.heap_name}].insert(*callsite).second) {
    // This callstack id now counts into a callsite that may already hold totals: its own
    // totals start from there.
    seq.allocated_offset[s.callstack_iid] = prev_allocated;
    seq.freed_offset[s.callstack_iid] = prev_freed;
  }
  const Totals& allocated_offset = seq.allocated_offset[s.callstack_iid];
  const Totals& freed_offset = seq.freed_offset[s.callstack_iid];
  allocated.count += allocated_offset.count;
  allocated.size += allocated_offset.size;
  freed.count += freed_offset.count;
  freed.size += freed_offset.size;

  const Totals allocated_delta{allocated.count - prev_allocated.count,
                               allocated.size - prev_allocated.size};
  const Totals freed_delta{freed.count - prev_freed.count, freed.size - prev_freed.size};
  if (allocated_delta.count < 0 || allocated_delta.size < 0 || freed_delta.count > 0 ||
      freed_delta.size > 0) {
    // Totals only grow; one that shrank is a broken packet.
    storage->IncrementIndexedStat("heapprofd_malformed_packet", upid);
    return;
  }
  // Dump-at-max profiles have sizes without counts.
  if (allocated_delta.count != 0 || allocated_delta.size != 0) {
    storage->heap_profile_allocation.Insert({.ts = a.ts,
                                             .upid = upid,
                                             .heap_name = a.heap_name,
                                             .callsite_id = *callsite,
                                             .count = allocated_delta.count,
                                             .size = allocated_delta.size});
  }
  // ART's heap reports allocations only: a reused address says nothing about a free there.
  if (art_heap_ == kNullStringId) art_heap_ = storage->Intern("com.android.art");
  if (a.heap_name != art_heap_ && (freed_delta.count != 0 || freed_delta.size != 0)) {
    storage->heap_profile_allocation.Insert({.ts = a.ts,
                                             .upid = upid,
                                             .heap_name = a.heap_name,
                                             .callsite_id = *callsite,
                                             .count = freed_delta.count,
                                             .size = freed_delta.size});
  }
  prev_allocated = allocated;
  prev_freed = freed;
}

void HeapProfileTracker::OnEvent(int64_t ts, const HeapProfileData& data) {
  Sequence& seq = SequenceFor(data);
  CallstackTracker& callstacks = ctx_->callstacks;
  for (const CallstackFrame& frame : data.frames) callstacks.InternFrame(frame);
  for (const HeapProfileData::Callstack& c : data.callstacks) {
    if (auto callsite = callstacks.InternCallstack(c.frames)) seq.callsites[c.iid] = *callsite;
  }
  for (const HeapProfileData::Dump& dump : data.dumps) AddDump(ts, seq, dump);
  if (data.continued) return;
  // The profile is complete: its samples become allocations, and its ids are done.
  for (const PendingAllocation& a : seq.pending) CommitAllocation(seq, a);
  seq.pending.clear();
  seq.callsites.clear();
}

}  // namespace tw
