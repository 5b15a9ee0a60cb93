#pragma once
// Turns frame timeline events into slices on each process's "Expected Timeline" and "Actual
// Timeline" tracks (types android_expected_frame_timeline / android_actual_frame_timeline),
// which the expected_frame_timeline_slice / actual_frame_timeline_slice views read. Starts and
// ends pair by cookie; frames open at the same time get separate tracks of the set (each a
// process track named like the set, with only the process as dimension). An app's
// actual surface frame gets a flow to the SurfaceFlinger display frame that presented it.

#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/async_track_sets.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class FrameTimelineTracker {
 public:
  explicit FrameTimelineTracker(TraceContext* ctx);

  void OnEvent(int64_t ts, const FrameTimelineData& e);

 private:
  struct Open {
    uint32_t upid;
    bool actual;
    bool has_slice;  // false for a repeated expected surface frame, which makes no slice
  };
  // The track for a frame of `upid` with `cookie`: frames open at once get separate tracks,
  // while a repeated start of an open cookie nests on its track (as trace_processor does).
  uint32_t BeginTrack(uint32_t upid, bool actual, int64_t cookie);
  uint32_t EndTrack(uint32_t upid, bool actual, int64_t cookie);
  AsyncTrackSets::Factory TrackFactory(uint32_t upid, bool actual);
  uint32_t SetOf(uint32_t upid, bool actual);

  TraceContext* ctx_;
  StringId expected_name_;
  StringId actual_name_;
  AsyncTrackSets track_sets_;
  absl::flat_hash_map<int64_t, Open> open_by_cookie_;
  // Expected surface frames are identical for every layer using a token: keep the first only.
  absl::flat_hash_set<std::pair<uint32_t, int64_t>> expected_surface_tokens_;
  // Actual surface slices waiting for their display frame (display token → slice ids).
  absl::flat_hash_map<int64_t, std::vector<uint32_t>> surface_slices_by_display_token_;
};

}  // namespace tw
