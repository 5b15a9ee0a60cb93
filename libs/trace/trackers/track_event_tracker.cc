#include "libs/trace/trackers/track_event_tracker.h"

#include "libs/trace/trackers/trace_context.h"

namespace tw {

TrackEventTracker::TrackEventTracker(TraceContext* ctx) : ctx_(ctx) {}
TrackEventTracker::~TrackEventTracker() = default;

void TrackEventTracker::OnTrackEvent(int64_t ts, TrackEventData& event) {
  (void)ts;
  (void)event;
}

void TrackEventTracker::OnTrackCounter(int64_t ts, uint64_t track_uuid, double value) {
  (void)ts;
  (void)track_uuid;
  (void)value;
}

void TrackEventTracker::Finish() {}

}  // namespace tw
