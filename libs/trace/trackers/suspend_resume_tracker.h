#pragma once
// Kernel suspend/resume ftrace events → slices on global tracks, as trace_processor names them:
// suspend_resume_minimal (start 1/0) → "Suspended" slices on "Suspend/Resume Minimal";
// suspend_resume (action, val, start) → "<action>(<val>)" slices on "Suspend/Resume Latency",
// one track per concurrently open action. android.suspend reads both.
//
// A suspend_enter slice left open by a failed suspend_prepare (thaw_processes ends while
// freeze_processes runs inside suspend_enter) is ended at that thaw_processes, as
// trace_processor repairs it.

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/async_track_sets.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class SuspendResumeTracker {
 public:
  explicit SuspendResumeTracker(TraceContext* ctx);

  // Handles `raw` if it is a suspend/resume event (the raw row is stored by the caller).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  TraceContext* ctx_;
  StringId minimal_event_, latency_event_, start_key_, action_key_, val_key_;
  StringId minimal_track_, latency_track_, suspended_, main_event_;
  enum class State { kIdle, kEntering, kFreezing };
  State state_ = State::kIdle;
  int64_t suspend_enter_cookie_ = 0;
  AsyncTrackSets latency_tracks_;
};

}  // namespace tw
