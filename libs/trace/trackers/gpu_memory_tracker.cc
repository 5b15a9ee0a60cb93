#include "libs/trace/trackers/gpu_memory_tracker.h"

#include <optional>
#include <vector>

namespace tw {

GpuMemoryTracker::GpuMemoryTracker(TraceContext* ctx) : ctx_(ctx) {
  TraceStorage* s = ctx->storage;
  event_name_ = s->Intern("gpu_mem_total");
  gpu_id_key_ = s->Intern("gpu_id");
  pid_key_ = s->Intern("pid");
  size_key_ = s->Intern("size");
  track_name_ = s->Intern("GPU Memory");
  bytes_ = s->Intern("bytes");
}

uint32_t GpuMemoryTracker::Track(uint32_t gpu_id, std::optional<uint32_t> upid) {
  const std::pair<uint32_t, int64_t> key{gpu_id, upid ? int64_t{*upid} : -1};
  if (auto it = tracks_.find(key); it != tracks_.end()) return it->second;
  const uint32_t ugpu =
      ugpu_.try_emplace(gpu_id, static_cast<uint32_t>(ugpu_.size())).first->second;
  TraceStorage* s = ctx_->storage;
  const uint32_t track =
      ctx_->tracks.CreateTrack(track_name_, upid ? "process_gpu_memory" : "gpu_memory", "counter");
  s->track.counter_unit.Set(track, bytes_);
  std::vector<Arg> dims = {ctx_->args.MakeArg("ugpu", ArgValue::Int(ugpu)),
                           ctx_->args.MakeArg("gpu", ArgValue::Int(gpu_id))};
  if (upid) {
    s->track.upid.Set(track, *upid);
    dims.push_back(ctx_->args.MakeArg("upid", ArgValue::Int(*upid)));
  }
  if (auto set = ctx_->args.AddArgSet(dims)) s->track.dimension_arg_set_id.Set(track, *set);
  tracks_.emplace(key, track);
  return track;
}

void GpuMemoryTracker::OnPacketEvent(int64_t ts, const GpuMemTotalData& event) {
  std::optional<uint32_t> upid;
  if (event.pid != 0) {
    // The packet's writer is not the process it reports on; the pid is a process id.
    const uint32_t utid = ctx_->processes.UpdateThread(event.pid, event.pid);
    upid = ctx_->storage->thread.upid.Get(utid);
  }
  ctx_->storage->counter.Insert(
      {.ts = ts, .track_id = Track(event.gpu_id, upid), .value = static_cast<double>(event.size)});
  ctx_->storage->ExtendBounds(ts);
}

void GpuMemoryTracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  if (raw.name != event_name_) return;
  int64_t gpu_id = 0, pid = 0, size = 0;
  for (const Arg& a : raw.args) {
    if (a.key == gpu_id_key_) gpu_id = a.value.int_value;
    if (a.key == pid_key_) pid = a.value.int_value;
    if (a.key == size_key_) size = a.value.int_value;
  }
  std::optional<uint32_t> upid;
  if (pid != 0) {
    if (!ctx_->processes.GetThreadOrNull(pid)) return;
    const uint32_t utid = ctx_->processes.UpdateThread(pid, pid);
    upid = ctx_->storage->thread.upid.Get(utid);
  }
  ctx_->storage->counter.Insert({.ts = ts,
                                 .track_id = Track(static_cast<uint32_t>(gpu_id), upid),
                                 .value = static_cast<double>(size)});
}

}  // namespace tw
