#pragma once
// The GPUs of a trace: rows of the gpu table (ugpu), GPU counter tracks from counter
// descriptors (one per spec: type gpu_counter, dimensions ugpu, gpu, name) with their groups,
// and the counter samples. Samples of a backwards-looking counter describe the interval that
// ends at their time: the value goes to the previous sample and the new one holds 0 until the
// next arrives.

#include <cstdint>
#include <optional>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class GpuTracker {
 public:
  explicit GpuTracker(TraceContext* ctx) : ctx_(ctx) {}

  // The gpu table row of `gpu_id`, created on first sight.
  uint32_t GetOrCreateGpu(int64_t gpu_id);

  void OnEvent(int64_t ts, const GpuEventData& e);

 private:
  struct CounterTrack {
    uint32_t track;
    bool forwards_looking;
  };
  using CounterMap = absl::flat_hash_map<uint32_t, CounterTrack>;  // counter_id → track
  using InternedKey = std::tuple<uint32_t, uint32_t, uint64_t>;     // sequence, generation, iid

  void OnDescriptor(const GpuEventData& e);
  void OnSamples(int64_t ts, const GpuEventData& e);
  void OnGpuInfo(const GpuEventData& e);
  uint32_t CounterTrackFor(int64_t gpu_id, const GpuEventData::Spec& spec);

  TraceContext* ctx_;
  absl::flat_hash_map<int64_t, uint32_t> gpus_;
  CounterMap legacy_counters_;
  absl::flat_hash_map<InternedKey, CounterMap> interned_counters_;
  absl::flat_hash_map<uint32_t, std::optional<uint32_t>> last_sample_;  // by track: counter row
};

}  // namespace tw
