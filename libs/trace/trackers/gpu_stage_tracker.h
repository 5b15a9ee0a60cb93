#pragma once
// The GPU timeline: render stage slices on per-queue tracks (type gpu_render_stage, compressed
// so overlapping work on one queue spreads over several tracks of the set; dimensions ugpu,
// gpu, render_stage_source, hwqueue_id, hwqueue_name), GPU driver logs (one "GPU Log" track),
// vkQueueSubmit slices ("Vulkan Events"), generic GPU frequency counters, the gpu_context
// table, and flows between render stages and the CPU-side slices that submitted or waited for
// them (GpuTrackEvent.gpu_correlation) or the stages they wait for (event_wait_ids).
//
// Legacy (non-interned) specifications name queues and stages by index as they arrive: a stage
// on a queue not described yet goes on an "Unknown GPU Queue <n>" track that is renamed when
// the description comes.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "libs/trace/events/gpu_stage_events.h"
#include "libs/trace/trackers/async_track_sets.h"

namespace tw {

struct TraceContext;
class GpuTracker;

class GpuStageTracker {
 public:
  GpuStageTracker(TraceContext* ctx, GpuTracker* gpus) : ctx_(ctx), gpus_(gpus) {}

  void OnEvent(int64_t ts, const GpuStageData& e);

  // A CPU-side slice that submitted render stage `event_id` (flow slice → stage) or waits for
  // it to finish (flow stage → slice).
  void AddRenderStageSubmission(uint64_t event_id, uint32_t slice);
  void AddRenderStageWait(uint64_t event_id, uint32_t slice);

 private:
  struct Queue {
    StringId name = kNullStringId;
    StringId description = kNullStringId;
  };

  void RenderStage(int64_t ts, const GpuStageData& e);
  void Log(int64_t ts, const GpuStageData& e);
  void QueueSubmit(int64_t ts, const GpuStageData& e);
  void Frequency(int64_t ts, const GpuStageData& e);
  void DescribeLegacyQueue(uint32_t gpu_id, uint32_t index, const GpuStageData::Description& q);
  void InsertContext(const GpuStageData& e);
  void AddStageSlice(uint64_t event_id, uint32_t slice);
  void AddEventWait(uint64_t waited_event_id, uint32_t slice);
  void Flow(uint32_t out, uint32_t in);

  // The compressed set of render stage tracks with these dimensions.
  uint32_t StageTrackSet(uint32_t ugpu, uint32_t gpu_id, std::string_view source,
                         uint64_t hw_queue_id, StringId dimension_name);
  AsyncTrackSets::Factory StageTrackFactory(uint32_t ugpu, uint32_t gpu_id,
                                            std::string_view source, uint64_t hw_queue_id,
                                            StringId dimension_name, StringId track_name,
                                            StringId description);
  StringId DebugName(int32_t object_type, uint64_t handle);

  TraceContext* ctx_;
  GpuTracker* gpus_;
  AsyncTrackSets stage_tracks_;
  std::vector<std::optional<Queue>> legacy_queues_;                 // by hw_queue_id
  std::vector<std::pair<StringId, StringId>> legacy_stages_;        // by stage_id: name, desc
  absl::flat_hash_map<uint64_t, bool> placeholder_queues_;          // still to be renamed
  std::map<int32_t, std::map<uint64_t, std::string>> debug_names_;  // Vulkan object names
  absl::flat_hash_set<uint64_t> contexts_;
  absl::flat_hash_map<uint64_t, std::vector<uint32_t>> stage_slices_;   // event_id → slices
  absl::flat_hash_map<uint64_t, uint32_t> submitting_slice_;            // event_id → slice
  absl::flat_hash_map<uint64_t, uint32_t> terminating_slice_;           // event_id → slice
  absl::flat_hash_map<uint64_t, std::vector<uint32_t>> waiting_slices_;  // event_id → slices
};

}  // namespace tw
