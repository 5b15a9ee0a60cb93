#pragma once
// Contiguous memory (CMA) allocations as slices "mm_cma_alloc" on the allocating thread, as
// trace_processor builds them. The kernel's events changed over versions:
//   5.10 <= kernel < 6.1: cma_alloc_start ... cma_alloc_info (which carries the outcome);
//   kernel >= 6.1: cma_alloc_start, mm_alloc_contig_migrate_range_info (migration counts),
//                  cma_alloc_finish (the outcome).
// Older kernels (or an unknown version) have no event that ends an allocation: no slices.
// The kernel version is the trace's system_info release, known before events are routed.

#include <cstdint>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/events/task_state.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class CmaAllocTracker {
 public:
  explicit CmaAllocTracker(TraceContext* ctx);

  // Handles `raw` if it is one of the events above (its raw row is stored by the caller).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  struct Migration {
    int64_t nr_migrated = 0, nr_reclaimed = 0, nr_mapped = 0;
  };
  void Start(int64_t ts, const FtraceRawData& raw);
  void Info(int64_t ts, const FtraceRawData& raw);
  void Finish(int64_t ts, const FtraceRawData& raw);
  const std::optional<KernelVersion>& Kernel();
  uint32_t Track(int32_t pid);
  int64_t Int(const FtraceRawData& raw, StringId key) const;
  Arg UintArg(std::string_view key, int64_t value);
  StringId Name(const FtraceRawData& raw);  // the CMA area's name

  TraceContext* ctx_;
  TraceStorage* storage_;
  StringId start_, info_, finish_, migrate_range_info_, slice_name_;
  bool kernel_known_ = false;
  std::optional<KernelVersion> kernel_;
  // By utid: the migration counts of the thread's allocation in progress (kernel >= 6.1).
  absl::flat_hash_map<uint32_t, Migration> migrations_;
};

}  // namespace tw
