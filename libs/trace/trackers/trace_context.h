#pragma once
// The trackers of one trace import, created together and wired to one storage. Importers hand
// sorted events to EventRouter; everything else reaches the trackers through here.

#include <memory>
#include <vector>

#include "libs/trace/events/deobfuscation_events.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/args_tracker.h"
#include "libs/trace/trackers/callstack_tracker.h"
#include "libs/trace/trackers/irq_tracker.h"
#include "libs/trace/trackers/process_counter_tracker.h"
#include "libs/trace/trackers/process_tracker.h"
#include "libs/trace/trackers/sched_tracker.h"
#include "libs/trace/trackers/slice_tracker.h"
#include "libs/trace/trackers/syscall_tracker.h"
#include "libs/trace/trackers/track_tracker.h"

namespace tw {

class GpuTracker;
class GpuStageTracker;
class TrackEventTracker;
class JsonEventTracker;

struct TraceContext {
  explicit TraceContext(TraceStorage* s);
  ~TraceContext();

  TraceStorage* storage;
  ArgsTracker args;
  ProcessTracker processes;
  TrackTracker tracks;
  SliceTracker slices;
  SchedTracker sched;
  SyscallTracker syscalls;
  IrqTracker irqs;
  ProcessCounterTracker process_counters;
  CallstackTracker callstacks;
  std::unique_ptr<TrackEventTracker> track_events;
  std::unique_ptr<JsonEventTracker> json_events;
  std::unique_ptr<GpuTracker> gpus;
  std::unique_ptr<GpuStageTracker> gpu_stages;  // render stages, GPU logs, Vulkan events
  // The trace's DeobfuscationMapping packets, applied once every other event is in.
  std::vector<DeobfuscationMappingData> deobfuscation_mappings;
};

}  // namespace tw
