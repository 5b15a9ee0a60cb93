#include "libs/trace/trackers/virtio_tracker.h"

#include "absl/strings/str_cat.h"
#include "libs/trace/trackers/raw_event_args.h"

namespace tw {
namespace {

// virtio_gpu_ctrl_type command names (the virtio-gpu spec's VIRTIO_GPU_CMD_* without the
// prefix); responses and unknown values have no name.
std::string_view VirtioGpuCommandName(int64_t type) {
  static constexpr std::string_view k2d[] = {
      "GET_DISPLAY_INFO", "RESOURCE_CREATE_2D", "RESOURCE_UNREF", "SET_SCANOUT",
      "RESOURCE_FLUSH", "TRANSFER_TO_HOST_2D", "RESOURCE_ATTACH_BACKING",
      "RESOURCE_DETACH_BACKING", "GET_CAPSET_INFO", "GET_CAPSET", "GET_EDID",
      "RESOURCE_ASSIGN_UUID", "RESOURCE_CREATE_BLOB", "SET_SCANOUT_BLOB"};
  static constexpr std::string_view k3d[] = {
      "CTX_CREATE", "CTX_DESTROY", "CTX_ATTACH_RESOURCE", "CTX_DETACH_RESOURCE",
      "RESOURCE_CREATE_3D", "TRANSFER_TO_HOST_3D", "TRANSFER_FROM_HOST_3D", "SUBMIT_3D",
      "RESOURCE_MAP_BLOB", "RESOURCE_UNMAP_BLOB"};
  static constexpr std::string_view kCursor[] = {"UPDATE_CURSOR", "MOVE_CURSOR"};
  auto pick = [type](int64_t base, const auto& names) -> std::string_view {
    const int64_t i = type - base;
    return i >= 0 && i < static_cast<int64_t>(std::size(names)) ? names[i] : "";
  };
  if (type >= 0x300) return pick(0x300, kCursor);
  if (type >= 0x200) return pick(0x200, k3d);
  return pick(0x100, k2d);
}

// virtio-video command names (VIRTIO_VIDEO_CMD_*, from 0x100).
std::string_view VirtioVideoCommandName(int64_t type) {
  static constexpr std::string_view kNames[] = {
      "QUERY_CAPABILITY", "STREAM_CREATE", "STREAM_DESTROY", "STREAM_DRAIN",
      "RESOURCE_CREATE", "RESOURCE_QUEUE", "RESOURCE_DESTROY_ALL", "QUEUE_CLEAR",
      "GET_PARAMS", "SET_PARAMS", "QUERY_CONTROL", "GET_CONTROL", "SET_CONTROL",
      "GET_PARAMS_EXT", "SET_PARAMS_EXT"};
  const int64_t i = type - 0x100;
  return i >= 0 && i < static_cast<int64_t>(std::size(kNames)) ? kNames[i] : "Unknown";
}

std::string_view VirtioVideoQueueName(int64_t queue_type) {
  if (queue_type == 0x100) return "INPUT";
  if (queue_type == 0x101) return "OUTPUT";
  return "Unknown";
}

// How long a virtio-video command slice lasts: the events mark only the moment.
constexpr int64_t kVideoCommandDur = 100000;

}  // namespace

VirtioTracker::VirtioTracker(TraceContext* ctx) : ctx_(ctx) {
  TraceStorage* s = ctx->storage;
  gpu_queue_ = s->Intern("virtio_gpu_cmd_queue");
  gpu_response_ = s->Intern("virtio_gpu_cmd_response");
  video_cmd_ = s->Intern("virtio_video_cmd");
  video_cmd_done_ = s->Intern("virtio_video_cmd_done");
  video_queue_ = s->Intern("virtio_video_resource_queue");
  video_queue_done_ = s->Intern("virtio_video_resource_queue_done");
  name_key_ = s->Intern("name");
  seqno_key_ = s->Intern("seqno");
  type_key_ = s->Intern("type");
  fence_key_ = s->Intern("fence_id");
  num_free_key_ = s->Intern("num_free");
  stream_key_ = s->Intern("stream_id");
  resource_key_ = s->Intern("resource_id");
  queue_type_key_ = s->Intern("queue_type");
}

void VirtioTracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  if (raw.name == gpu_queue_ || raw.name == gpu_response_) {
    OnGpuEvent(ts, raw, raw.name == gpu_response_);
  } else if (raw.name == video_queue_ || raw.name == video_queue_done_) {
    OnVideoResource(ts, raw, raw.name == video_queue_done_);
  } else if (raw.name == video_cmd_ || raw.name == video_cmd_done_) {
    OnVideoCommand(ts, raw, raw.name == video_cmd_done_);
  }
}

AsyncTrackSets::Factory VirtioTracker::FactoryFor(const std::string& track_name,
                                                  std::string_view type) {
  return [this, track_name, type](uint32_t, int64_t) {
    return ctx_->tracks.CreateTrack(ctx_->storage->Intern(track_name), type, "slice");
  };
}

uint32_t VirtioTracker::SetFor(const std::string& track_name, std::string_view type) {
  return track_sets_.SetFor(std::string(type) + "\n" + track_name);
}

void VirtioTracker::Counter(int64_t ts, const std::string& name, std::string_view type,
                            double value) {
  const uint32_t track = ctx_->tracks.InternGlobalCounterTrack(ctx_->storage->Intern(name), type);
  ctx_->storage->counter.Insert({.ts = ts, .track_id = track, .value = value});
}

void VirtioTracker::OnGpuEvent(int64_t ts, const FtraceRawData& raw, bool response) {
  const std::string_view queue = RawStringArg(*ctx_->storage, raw, name_key_);
  std::string label;
  if (queue == "control") label = "Control";
  if (queue == "cursor") label = "Cursor";
  if (label.empty()) return;
  const int64_t seqno = RawIntArg(raw, seqno_key_).value_or(0);
  const std::string track_name = absl::StrCat("Virtgpu ", label, " Queue");
  constexpr std::string_view kType = "virtgpu_queue_event";
  const uint32_t set = SetFor(track_name, kType);
  auto& pending = gpu_pending_[label];
  if (!response) {
    Counter(ts, absl::StrCat("Virtgpu ", label, " Free"), "virtgpu_num_free",
            static_cast<double>(RawIntArg(raw, num_free_key_).value_or(0)));
    const uint32_t track = track_sets_.Begin(set, seqno, FactoryFor(track_name, kType));
    const std::string_view command = VirtioGpuCommandName(RawIntArg(raw, type_key_).value_or(0));
    ctx_->slices.Begin(ts, track, kNullStringId, ctx_->storage->Intern(command), {});
    if (RawIntArg(raw, fence_key_).value_or(0) == 0) pending[seqno] = ts;
    return;
  }
  const uint32_t track = track_sets_.End(set, seqno, FactoryFor(track_name, kType));
  ctx_->slices.End(ts, track, kNullStringId, kNullStringId, {});
  if (auto it = pending.find(seqno); it != pending.end()) {
    Counter(ts, absl::StrCat("Virtgpu ", label, " Latency"), "virtgpu_latency",
            static_cast<double>(ts - it->second));
    pending.erase(it);
  }
}

void VirtioTracker::OnVideoResource(int64_t ts, const FtraceRawData& raw, bool done) {
  const int64_t stream = RawIntArg(raw, stream_key_).value_or(0);
  const int64_t resource = RawIntArg(raw, resource_key_).value_or(0);
  const std::string track_name =
      absl::StrCat("virtio_video stream #", stream, " ",
                   std::string(VirtioVideoQueueName(RawIntArg(raw, queue_type_key_).value_or(0))));
  constexpr std::string_view kType = "virtio_video_queue_event";
  const uint32_t set = SetFor(track_name, kType);
  if (!done) {
    const uint32_t track = track_sets_.Begin(set, resource, FactoryFor(track_name, kType));
    ctx_->slices.Begin(ts, track, kNullStringId,
                       ctx_->storage->Intern(absl::StrCat("Resource #", resource)), {});
    return;
  }
  const uint32_t track = track_sets_.End(set, resource, FactoryFor(track_name, kType));
  ctx_->slices.End(ts, track, kNullStringId, kNullStringId, raw.args);
}

void VirtioTracker::OnVideoCommand(int64_t ts, const FtraceRawData& raw, bool done) {
  const int64_t stream = RawIntArg(raw, stream_key_).value_or(0);
  const std::string track_name =
      absl::StrCat("virtio_video stream #", stream, done ? " Responses" : " Requests");
  constexpr std::string_view kType = "virtio_video_command";
  const uint32_t track =
      track_sets_.Instant(SetFor(track_name, kType), 0, FactoryFor(track_name, kType));
  const std::string_view command = VirtioVideoCommandName(RawIntArg(raw, type_key_).value_or(0));
  ctx_->slices.Scoped(ts, track, kNullStringId, ctx_->storage->Intern(command), kVideoCommandDur,
                      {});
}

}  // namespace tw
