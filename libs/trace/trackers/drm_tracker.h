#pragma once
// GPU driver (DRM) ftrace events → slices, as trace_processor draws them:
//  - drm_vblank_event / _delivered: "signal" / "deliver" instants on a per-CRTC track
//    ("vblank-<crtc>", type drm_vblank) with the "vblank seqno";
//  - GPU scheduler jobs (drm_sched_job / drm_run_job / drm_sched_process_job, and the newer
//    drm_sched_job_queue / _run / _done keyed by fence): a "drm_sched_job_queue" instant on the
//    submitting thread, then "job" slices on the ring's track ("sched-<ring>", drm_sched_ring),
//    one after another while jobs are queued on the ring, each joined by a flow to its queue
//    instant;
//  - dma fences (dma_fence_init / _emit / _signaled): "fence" slices on the fence timeline's
//    track ("fence-<timeline>-<context>", drm_fence) from creation (or emission, once the
//    timeline has shown it emits) to signal, fences of one timeline one after another; meta
//    fences on the "unbound" timeline are ignored;
//  - dma_fence_wait_start / _end: "dma_fence_wait" slices on the waiting thread.

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class DrmTracker {
 public:
  explicit DrmTracker(TraceContext* ctx);

  // Handles `raw` if it is one of the events above (the raw row is stored by the caller).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  // A scheduler job as the events name it: the old events by the job's local id (queue) or its
  // fence's address (done), the newer ones by (fence context, fence seqno) throughout.
  struct Job {
    bool by_fence = false;
    uint64_t local_id = 0;  // old events: the job id
    uint64_t fence = 0;     // old events: the finished fence's address
    uint64_t context = 0;   // new events
    uint64_t seqno = 0;
    // How the queue instant and the run are matched, and how run and done are.
    std::pair<uint64_t, uint64_t> QueueKey() const {
      return by_fence ? std::make_pair(context, seqno) : std::make_pair(uint64_t{0}, local_id);
    }
    std::pair<uint64_t, uint64_t> DoneKey() const {
      return by_fence ? std::make_pair(context, seqno) : std::make_pair(uint64_t{1}, fence);
    }
  };
  struct Ring {
    uint32_t track = 0;
    std::deque<Job> running;
    absl::flat_hash_map<std::pair<uint64_t, uint64_t>, uint32_t> queued;  // → queue instant
  };
  struct FenceTimeline {
    uint32_t track = 0;
    bool emits = false;  // the timeline has dma_fence_emit: it times fences, not init
    std::deque<uint64_t> pending;  // seqnos not yet signalled
  };

  void Vblank(int64_t ts, const FtraceRawData& raw, StringId slice_name);
  void JobQueue(int64_t ts, const FtraceRawData& raw, const Job& job);
  void JobRun(int64_t ts, const FtraceRawData& raw, const Job& job);
  void JobDone(int64_t ts, const Job& job);
  void BeginJobSlice(int64_t ts, Ring& ring);
  std::vector<Arg> JobArgs(const Job& job);
  Ring& RingNamed(StringId name);
  void FenceInit(int64_t ts, const FtraceRawData& raw, bool emit);
  void FenceSignaled(int64_t ts, const FtraceRawData& raw);
  void BeginFenceSlice(int64_t ts, const FenceTimeline& timeline);
  FenceTimeline* Timeline(const FtraceRawData& raw);

  int64_t Int(const FtraceRawData& raw, StringId key) const;
  StringId Str(const FtraceRawData& raw, StringId key) const;

  TraceContext* ctx_;
  StringId ev_vblank_, ev_vblank_delivered_, ev_sched_job_, ev_run_job_, ev_process_job_,
      ev_job_queue_, ev_job_run_, ev_job_done_, ev_fence_init_, ev_fence_emit_,
      ev_fence_signaled_, ev_wait_start_, ev_wait_end_;
  StringId k_crtc_, k_seq_, k_id_, k_fence_, k_name_, k_fence_context_, k_fence_seqno_,
      k_context_, k_seqno_, k_timeline_;
  StringId signal_, deliver_, queue_slice_, job_slice_, fence_slice_, wait_slice_, unbound_;
  absl::flat_hash_map<StringId, std::unique_ptr<Ring>> rings_;
  absl::flat_hash_map<std::pair<uint64_t, uint64_t>, Ring*> busy_;  // job DoneKey → its ring
  absl::flat_hash_map<uint64_t, std::unique_ptr<FenceTimeline>> timelines_;  // by context
};

}  // namespace tw
