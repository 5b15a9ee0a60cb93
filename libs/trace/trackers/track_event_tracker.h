#pragma once
// Turns resolved TrackEvents into slices, instants, counters and flows on the tracks their
// descriptors define (thread, process, async, counter tracks, nested in a hierarchy).

#include <cstdint>

#include "libs/trace/events/events.h"

namespace tw {

struct TraceContext;

class TrackEventTracker {
 public:
  explicit TrackEventTracker(TraceContext* ctx);
  ~TrackEventTracker();

  void OnTrackEvent(int64_t ts, TrackEventData& event);
  void OnTrackCounter(int64_t ts, uint64_t track_uuid, double value);
  // End of trace: writes anything accumulated (sort-index hints, ...).
  void Finish();

 private:
  TraceContext* ctx_;
};

}  // namespace tw
