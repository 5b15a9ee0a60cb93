#pragma once
// Hard and soft interrupts as slices on per-cpu tracks ("Irq Cpu N", "SoftIrq Cpu N"), so time
// stolen from threads by interrupts is visible next to the sched data.

#include <cstdint>

#include "libs/trace/events/events.h"
#include "libs/trace/trackers/slice_tracker.h"
#include "libs/trace/trackers/track_tracker.h"

namespace tw {

class IrqTracker {
 public:
  IrqTracker(TraceStorage* storage, TrackTracker* tracks, SliceTracker* slices);
  void OnEvent(const Event& e);

 private:
  uint32_t Track(uint32_t cpu, bool soft);

  TraceStorage* storage_;
  TrackTracker* tracks_;
  SliceTracker* slices_;
  StringId irq_category_;
};

}  // namespace tw
