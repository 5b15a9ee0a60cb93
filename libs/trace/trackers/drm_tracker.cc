#include "libs/trace/trackers/drm_tracker.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "libs/trace/trackers/raw_event_args.h"

namespace tw {

DrmTracker::DrmTracker(TraceContext* ctx) : ctx_(ctx) {
  TraceStorage* s = ctx->storage;
  ev_vblank_ = s->Intern("drm_vblank_event");
  ev_vblank_delivered_ = s->Intern("drm_vblank_event_delivered");
  ev_sched_job_ = s->Intern("drm_sched_job");
  ev_run_job_ = s->Intern("drm_run_job");
  ev_process_job_ = s->Intern("drm_sched_process_job");
  ev_job_queue_ = s->Intern("drm_sched_job_queue");
  ev_job_run_ = s->Intern("drm_sched_job_run");
  ev_job_done_ = s->Intern("drm_sched_job_done");
  ev_fence_init_ = s->Intern("dma_fence_init");
  ev_fence_emit_ = s->Intern("dma_fence_emit");
  ev_fence_signaled_ = s->Intern("dma_fence_signaled");
  ev_wait_start_ = s->Intern("dma_fence_wait_start");
  ev_wait_end_ = s->Intern("dma_fence_wait_end");
  k_crtc_ = s->Intern("crtc");
  k_seq_ = s->Intern("seq");
  k_id_ = s->Intern("id");
  k_fence_ = s->Intern("fence");
  k_name_ = s->Intern("name");
  k_fence_context_ = s->Intern("fence_context");
  k_fence_seqno_ = s->Intern("fence_seqno");
  k_context_ = s->Intern("context");
  k_seqno_ = s->Intern("seqno");
  k_timeline_ = s->Intern("timeline");
  signal_ = s->Intern("signal");
  deliver_ = s->Intern("deliver");
  queue_slice_ = s->Intern("drm_sched_job_queue");
  job_slice_ = s->Intern("job");
  fence_slice_ = s->Intern("fence");
  wait_slice_ = s->Intern("dma_fence_wait");
  unbound_ = s->Intern("unbound");
}

int64_t DrmTracker::Int(const FtraceRawData& raw, StringId key) const {
  return RawIntArg(raw, key).value_or(0);
}

StringId DrmTracker::Str(const FtraceRawData& raw, StringId key) const {
  for (const Arg& a : raw.args) {
    if (a.key == key && a.value.type == ArgValue::Type::kString) return a.value.string_value;
  }
  return ctx_->storage->Intern("");
}

void DrmTracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  const StringId n = raw.name;
  auto old_job = [&](bool with_fence) {
    Job j;
    j.local_id = static_cast<uint64_t>(Int(raw, k_id_));
    if (with_fence) j.fence = static_cast<uint64_t>(Int(raw, k_fence_));
    return j;
  };
  auto fence_job = [&] {
    Job j;
    j.by_fence = true;
    j.context = static_cast<uint64_t>(Int(raw, k_fence_context_));
    j.seqno = static_cast<uint64_t>(Int(raw, k_fence_seqno_));
    return j;
  };
  if (n == ev_vblank_) {
    Vblank(ts, raw, signal_);
  } else if (n == ev_vblank_delivered_) {
    Vblank(ts, raw, deliver_);
  } else if (n == ev_sched_job_) {
    JobQueue(ts, raw, old_job(false));
  } else if (n == ev_run_job_) {
    JobRun(ts, raw, old_job(true));
  } else if (n == ev_process_job_) {
    Job j;
    j.fence = static_cast<uint64_t>(Int(raw, k_fence_));
    JobDone(ts, j);
  } else if (n == ev_job_queue_) {
    JobQueue(ts, raw, fence_job());
  } else if (n == ev_job_run_) {
    JobRun(ts, raw, fence_job());
  } else if (n == ev_job_done_) {
    JobDone(ts, fence_job());
  } else if (n == ev_fence_init_) {
    FenceInit(ts, raw, /*emit=*/false);
  } else if (n == ev_fence_emit_) {
    FenceInit(ts, raw, /*emit=*/true);
  } else if (n == ev_fence_signaled_) {
    FenceSignaled(ts, raw);
  } else if (n == ev_wait_start_) {
    const uint32_t track =
        ctx_->tracks.InternThreadTrack(ctx_->processes.GetOrCreateThread(raw.pid));
    ctx_->slices.Begin(
        ts, track, kNullStringId, wait_slice_,
        {ctx_->args.MakeArg("fence context", ArgValue::Uint(static_cast<uint32_t>(
                                                 Int(raw, k_context_)))),
         ctx_->args.MakeArg("fence seqno", ArgValue::Uint(static_cast<uint32_t>(
                                               Int(raw, k_seqno_))))});
  } else if (n == ev_wait_end_) {
    const uint32_t track =
        ctx_->tracks.InternThreadTrack(ctx_->processes.GetOrCreateThread(raw.pid));
    ctx_->slices.End(ts, track, kNullStringId, kNullStringId, {});
  }
}

void DrmTracker::Vblank(int64_t ts, const FtraceRawData& raw, StringId slice_name) {
  const int64_t crtc = Int(raw, k_crtc_);
  const uint32_t track = ctx_->tracks.InternTrack(
      "drm_vblank", "slice", ctx_->storage->Intern(absl::StrCat("vblank-", crtc)),
      {ctx_->tracks.Dim("drm_crtc", crtc)});
  ctx_->slices.Scoped(ts, track, kNullStringId, slice_name, 0,
                      {ctx_->args.MakeArg("vblank seqno", ArgValue::Uint(static_cast<uint32_t>(
                                                              Int(raw, k_seq_))))});
}

std::vector<Arg> DrmTracker::JobArgs(const Job& job) {
  if (job.by_fence) {
    return {ctx_->args.MakeArg("fence context", ArgValue::Uint(job.context)),
            ctx_->args.MakeArg("fence seqno", ArgValue::Uint(job.seqno))};
  }
  return {ctx_->args.MakeArg("gpu sched job", ArgValue::Uint(job.local_id))};
}

DrmTracker::Ring& DrmTracker::RingNamed(StringId name) {
  std::unique_ptr<Ring>& ring = rings_[name];
  if (!ring) {
    ring = std::make_unique<Ring>();
    ring->track = ctx_->tracks.InternTrack(
        "drm_sched_ring", "slice",
        ctx_->storage->Intern(absl::StrCat("sched-", std::string(ctx_->storage->Str(name)))),
        {ctx_->tracks.DimString("name", name)});
  }
  return *ring;
}

void DrmTracker::JobQueue(int64_t ts, const FtraceRawData& raw, const Job& job) {
  const StringId ring_name = Str(raw, k_name_);
  const uint32_t track =
      ctx_->tracks.InternThreadTrack(ctx_->processes.GetOrCreateThread(raw.pid));
  std::vector<Arg> args = {ctx_->args.MakeArg("gpu sched ring", ArgValue::String(ring_name))};
  for (Arg& a : JobArgs(job)) args.push_back(a);
  const std::optional<uint32_t> slice =
      ctx_->slices.Scoped(ts, track, kNullStringId, queue_slice_, 0, args);
  if (slice) RingNamed(ring_name).queued[job.QueueKey()] = *slice;
}

void DrmTracker::BeginJobSlice(int64_t ts, Ring& ring) {
  const Job job = ring.running.front();
  const std::optional<uint32_t> slice =
      ctx_->slices.Begin(ts, ring.track, kNullStringId, job_slice_, JobArgs(job));
  if (!slice) return;
  if (auto it = ring.queued.find(job.QueueKey()); it != ring.queued.end()) {
    ctx_->storage->flow.Insert(
        {.slice_out = it->second, .slice_in = *slice, .trace_id = std::nullopt});
    ring.queued.erase(it);
  }
}

void DrmTracker::JobRun(int64_t ts, const FtraceRawData& raw, const Job& job) {
  Ring& ring = RingNamed(Str(raw, k_name_));
  ring.running.push_back(job);
  busy_[job.DoneKey()] = &ring;
  // Jobs of one ring run one after another: a job's slice starts when the one before ends.
  if (ring.running.size() == 1) BeginJobSlice(ts, ring);
}

void DrmTracker::JobDone(int64_t ts, const Job& job) {
  auto it = busy_.find(job.DoneKey());
  if (it == busy_.end()) return;
  Ring& ring = *it->second;
  busy_.erase(it);
  if (!ring.running.empty()) ring.running.pop_front();
  ctx_->slices.End(ts, ring.track, kNullStringId, kNullStringId, {});
  if (!ring.running.empty()) BeginJobSlice(ts, ring);
}

DrmTracker::FenceTimeline* DrmTracker::Timeline(const FtraceRawData& raw) {
  const StringId name = Str(raw, k_timeline_);
  // Fence arrays and chains live on "unbound" timelines made up on the fly: not drawn.
  if (name == unbound_) return nullptr;
  const uint32_t context = static_cast<uint32_t>(Int(raw, k_context_));
  std::unique_ptr<FenceTimeline>& t = timelines_[context];
  if (!t) {
    t = std::make_unique<FenceTimeline>();
    t->track = ctx_->tracks.InternTrack(
        "drm_fence", "slice",
        ctx_->storage->Intern(
            absl::StrCat("fence-", std::string(ctx_->storage->Str(name)), "-", context)),
        {ctx_->tracks.DimString("name", name), ctx_->tracks.Dim("context", context)});
  }
  return t.get();
}

void DrmTracker::BeginFenceSlice(int64_t ts, const FenceTimeline& timeline) {
  ctx_->slices.Begin(ts, timeline.track, kNullStringId, fence_slice_,
                     {ctx_->args.MakeArg("fence seqno", ArgValue::Uint(static_cast<uint32_t>(
                                                            timeline.pending.front())))});
}

void DrmTracker::FenceInit(int64_t ts, const FtraceRawData& raw, bool emit) {
  FenceTimeline* t = Timeline(raw);
  if (!t) return;
  if (!emit && t->emits) return;  // emission times this timeline's fences, not creation
  if (emit && !t->emits) {
    // The first emission: the fences timed from their creation so far are dropped.
    t->emits = true;
    if (!t->pending.empty()) {
      ctx_->slices.End(ts, t->track, kNullStringId, kNullStringId, {});
      t->pending.clear();
    }
  }
  t->pending.push_back(static_cast<uint32_t>(Int(raw, k_seqno_)));
  if (t->pending.size() == 1) BeginFenceSlice(ts, *t);
}

void DrmTracker::FenceSignaled(int64_t ts, const FtraceRawData& raw) {
  FenceTimeline* t = Timeline(raw);
  if (!t) return;
  const uint64_t seqno = static_cast<uint32_t>(Int(raw, k_seqno_));
  if (t->pending.empty() || seqno < t->pending.front()) return;
  t->pending.pop_front();
  ctx_->slices.End(ts, t->track, kNullStringId, kNullStringId, {});
  if (!t->pending.empty()) BeginFenceSlice(ts, *t);
}

}  // namespace tw
