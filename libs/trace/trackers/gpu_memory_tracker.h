#pragma once
// GPU memory totals → "GPU Memory" counters (bytes), one track per GPU for the global total
// (pid 0; type gpu_memory) and one per (GPU, process) (type process_gpu_memory), with the
// dimensions ugpu, gpu (and upid) as trace_processor records them. Fed by GpuMemTotalEvent
// packets and gpu_mem_total ftrace events. A process's ftrace total that arrives after the
// process died (kworkers report late) is dropped rather than resurrecting the process.

#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class GpuMemoryTracker {
 public:
  explicit GpuMemoryTracker(TraceContext* ctx);

  void OnPacketEvent(int64_t ts, const GpuMemTotalData& event);
  // Handles `raw` if it is a gpu_mem_total event (the raw row is stored by the caller).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  // upid: nullopt for the GPU's global total.
  uint32_t Track(uint32_t gpu_id, std::optional<uint32_t> upid);

  TraceContext* ctx_;
  StringId event_name_, gpu_id_key_, pid_key_, size_key_, track_name_, bytes_;
  absl::flat_hash_map<uint32_t, uint32_t> ugpu_;  // gpu id → ugpu (first seen, first numbered)
  absl::flat_hash_map<std::pair<uint32_t, int64_t>, uint32_t> tracks_;  // (gpu, upid|-1)
};

}  // namespace tw
