#pragma once
// Paravirtualised device queues seen from the guest kernel, as trace_processor shows them:
// - virtio_gpu_cmd_queue / _response: each command a slice "<COMMAND>" on "Virtgpu <Control|
//   Cursor> Queue" from queueing to the response with the same seqno; "Virtgpu <q> Free"
//   counts free descriptors; "Virtgpu <q> Latency" the queue-to-response time of commands
//   without a fence (fenced ones need not be answered at once).
// - virtio_video_resource_queue / _done: "Resource #<id>" slices on "virtio_video stream #<s>
//   <INPUT|OUTPUT>"; virtio_video_cmd / _cmd_done: 100 µs "<COMMAND>" slices on
//   "virtio_video stream #<s> Requests" / "... Responses".
// Slices that overlap on one queue go on further tracks of the same name.

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/async_track_sets.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class VirtioTracker {
 public:
  explicit VirtioTracker(TraceContext* ctx);

  // Handles `raw` if it is a virtio_gpu / virtio_video event (the raw row is stored by the
  // caller).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  void OnGpuEvent(int64_t ts, const FtraceRawData& raw, bool response);
  void OnVideoResource(int64_t ts, const FtraceRawData& raw, bool done);
  void OnVideoCommand(int64_t ts, const FtraceRawData& raw, bool done);
  // The track set named `track_name` (type `type`), and a track of it for `cookie`.
  uint32_t SetFor(const std::string& track_name, std::string_view type);
  AsyncTrackSets::Factory FactoryFor(const std::string& track_name, std::string_view type);
  void Counter(int64_t ts, const std::string& name, std::string_view type, double value);

  TraceContext* ctx_;
  StringId gpu_queue_, gpu_response_, video_cmd_, video_cmd_done_, video_queue_,
      video_queue_done_;
  StringId name_key_, seqno_key_, type_key_, fence_key_, num_free_key_, stream_key_,
      resource_key_, queue_type_key_;
  AsyncTrackSets track_sets_;
  // queue name → seqno → when the unfenced command was queued.
  absl::flat_hash_map<std::string, absl::flat_hash_map<int64_t, int64_t>> gpu_pending_;
};

}  // namespace tw
