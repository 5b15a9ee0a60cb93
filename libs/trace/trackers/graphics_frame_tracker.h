#pragma once
// SurfaceFlinger buffer events (GraphicsFrameEventData) → slices on "graphics_frame_event"
// tracks, as trace_processor lays them out:
// - every event: a slice named after its type ("Dequeue", "Queue", "AcquireFenceSignaled", ...;
//   "unknown_event" when absent) on "Buffer: <id> <layer>", with frame_number, layer_name and
//   the queue→acquire, acquire→latch and latch→present times of the buffer so far;
// - the frame's phases, each an open slice named by frame number: "APP_<id> <layer>" from
//   dequeue to queue, "GPU_<id> <layer>" from queue to acquire fence, "SF_<id> <layer>" from
//   latch to present fence, and "Display_<layer>" from one present fence to the next.
// A dequeue whose queue never came is renamed "0" (frame_number 0); a queue after an acquire
// that followed the dequeue opens no GPU phase.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class GraphicsFrameTracker {
 public:
  explicit GraphicsFrameTracker(TraceContext* ctx);

  void OnEvent(int64_t ts, const GraphicsFrameEventData& event);

 private:
  struct BufferTimes {
    int64_t acquire_ts = 0;
    int64_t queue_ts = 0;
    int64_t latch_ts = 0;
    bool last_was_dequeue = false;
  };
  struct Dequeued {
    uint32_t slice;
    int64_t ts;
  };
  struct Queued {  // the GPU phase open on `track`
    uint32_t track;
  };
  struct Latched {  // the SF phase open on `track`
    uint32_t track;
  };
  struct Phases {
    std::variant<std::monostate, Dequeued, Queued, Latched> open;
    std::optional<int64_t> last_acquire_ts;
  };

  void AddBufferSlice(int64_t ts, const GraphicsFrameEventData& e, StringId layer,
                      const std::string& key);
  void AddPhaseSlices(int64_t ts, const GraphicsFrameEventData& e, StringId layer,
                      const std::string& key);
  uint32_t Track(const std::string& name);
  std::optional<uint32_t> BeginPhase(int64_t ts, const GraphicsFrameEventData& e, uint32_t track,
                                     StringId layer);
  // Renames a dequeue slice whose frame never got queued to "0", frame_number 0.
  void MarkDequeueLost(uint32_t slice);
  void SetFrameNumber(uint32_t slice, int64_t frame_number);

  TraceContext* ctx_;
  StringId unknown_event_, no_layer_name_, frame_number_key_, layer_name_key_,
      queue_to_acquire_key_, acquire_to_latch_key_, latch_to_present_key_;
  StringId type_names_[14];
  absl::flat_hash_map<std::string, BufferTimes> buffers_;  // "<id><layer>" → times
  absl::flat_hash_map<std::string, Phases> phases_;
  absl::flat_hash_map<StringId, uint32_t> display_tracks_;  // layer → its Display_ track
};

}  // namespace tw
