#pragma once
// Android input events (AndroidInputEventData) → android_motion_events, android_key_events and
// android_input_event_dispatch rows, each with its message's args. Rows keep trace order.

#include <cstdint>

#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class AndroidInputTracker {
 public:
  explicit AndroidInputTracker(TraceContext* ctx) : ctx_(ctx) {}

  void OnEvent(int64_t ts, const AndroidInputEventData& event);

 private:
  TraceContext* ctx_;
};

}  // namespace tw
