#pragma once
// Kernel clock ftrace events (clock_set_rate, clock_enable, clock_disable) → global counter
// tracks "<clock> Frequency" (type clock_frequency) and "<clock> State" (type clock_state), as
// trace_processor names them; android.dvfs reads the frequency tracks.

#include <cstdint>

#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class ClockRateTracker {
 public:
  explicit ClockRateTracker(TraceContext* ctx);

  // Handles `raw` if it is a clock event (the raw row is stored by the caller either way).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  TraceContext* ctx_;
  StringId set_rate_, enable_, disable_, name_key_, state_key_;
};

}  // namespace tw
