#pragma once
// Payloads of the GPU timeline data sources: render stages (GpuRenderStageEvent, what a GPU
// queue executed and when), GPU driver logs (GpuLog), Vulkan API events (object debug names and
// vkQueueSubmit) and generic GPU frequency samples. The decoder resolves everything interned
// (contexts, stage / queue specifications, kernels, compute arg names) so the tracker only
// needs the values.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libs/trace/events/events.h"

namespace tw {

struct GpuStageData {
  enum class Kind : uint8_t {
    kRenderStage,
    kLog,
    kVulkanObjectName,
    kVulkanQueueSubmit,
    kFrequency,
  };
  Kind kind = Kind::kRenderStage;

  // ---- kRenderStage ----
  uint32_t gpu_id = 0;
  // Legacy (non-interned) specifications carried by the event: its GPU's hardware queues and
  // stages by index, and the context's pid.
  struct Description {
    bool has_name = false;
    StringId name = kNullStringId;
    StringId description = kNullStringId;
  };
  std::vector<Description> spec_hw_queues;
  std::vector<Description> spec_stages;
  std::optional<int32_t> spec_pid;
  // The graphics context, when interned (InternedGraphicsContext): its pid and API.
  std::optional<uint64_t> context;
  bool context_interned = false;
  int32_t context_pid = 0;
  bool context_has_pid = false;
  std::optional<int32_t> context_api;

  std::optional<uint64_t> event_id;  // without one the event only carries specifications
  uint64_t duration = 0;
  // The hardware queue: interned (hw_queue_iid, resolved here) or a legacy index.
  bool queue_interned = false;
  bool queue_missing = false;  // interned but not found: the event is dropped
  uint64_t hw_queue_id = 0;
  StringId queue_name = kNullStringId;         // interned queue
  StringId queue_description = kNullStringId;  // interned queue, NULL when empty
  // The stage: interned (stage_iid) or a legacy index into the specifications.
  bool stage_interned = false;
  bool stage_found = false;  // interned stage resolved
  StringId stage_name = kNullStringId;
  StringId stage_description = kNullStringId;
  int64_t stage_category = 0;
  uint64_t stage_id = 0;  // legacy: static_cast<uint64_t>(int32 stage_id)
  bool has_stage_id = false;
  // An explicit slice name (name / name_iid); otherwise the stage names the slice.
  bool has_name = false;
  StringId name = kNullStringId;
  std::vector<Arg> compute_args;  // kernel identity, launch dimensions and extra compute args
  uint64_t render_pass_instance_id = 0;
  std::vector<std::pair<StringId, StringId>> extra_data;
  uint64_t render_target_handle = 0;
  uint64_t render_pass_handle = 0;
  uint64_t command_buffer_handle = 0;
  uint32_t submission_id = 0;
  std::vector<uint64_t> render_subpass_index_mask;
  std::vector<uint64_t> event_wait_ids;

  // ---- kLog ----
  int64_t severity = 0;
  StringId tag = kNullStringId;        // NULL when absent
  StringId message = kNullStringId;    // NULL when absent
  bool has_tag = false;
  bool has_message = false;

  // ---- kVulkanObjectName ----
  int32_t object_type = 0;
  uint64_t object = 0;
  std::string object_name;

  // ---- kVulkanQueueSubmit ----
  uint64_t duration_ns = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  std::vector<uint64_t> command_buffers;

  // ---- kFrequency ----
  uint32_t frequency_khz = 0;
};

}  // namespace tw
