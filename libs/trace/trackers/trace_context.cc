#include "libs/trace/trackers/trace_context.h"

#include "libs/trace/trackers/gpu_stage_tracker.h"
#include "libs/trace/trackers/gpu_tracker.h"
#include "libs/trace/trackers/json_event_tracker.h"
#include "libs/trace/trackers/track_event_tracker.h"

namespace tw {

TraceContext::TraceContext(TraceStorage* s)
    : storage(s),
      args(s),
      processes(s),
      tracks(s, &args),
      slices(s, &args),
      sched(s, &processes, &args),
      syscalls(s, &tracks, &slices),
      irqs(s, &tracks, &slices),
      process_counters(s, &tracks),
      callstacks(s),
      track_events(std::make_unique<TrackEventTracker>(this)),
      json_events(std::make_unique<JsonEventTracker>(this)),
      gpus(std::make_unique<GpuTracker>(this)),
      gpu_stages(std::make_unique<GpuStageTracker>(this, gpus.get())) {}

TraceContext::~TraceContext() = default;

}  // namespace tw
