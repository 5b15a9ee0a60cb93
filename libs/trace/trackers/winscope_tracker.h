#pragma once
// Stores winscope events (WinscopeData) as rows: input method dumps, SurfaceFlinger transaction
// entries with their changes, SurfaceFlinger layer snapshots with their displays, layers and rects, and the names of the change flags each distinct `what` bitset
// sets (numbered across layer and display bitsets, as trace_processor numbers them).

#include <cstdint>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class WinscopeTracker {
 public:
  explicit WinscopeTracker(TraceContext* ctx) : ctx_(ctx) {}

  void OnEvent(int64_t ts, const WinscopeData& e);
  // End of trace: each transition's status (played, merged, aborted) and duration.
  void Finish();

 private:
  void SurfaceFlingerTransactions(int64_t ts, const WinscopeData& e);
  uint32_t FlagsId(uint64_t what, bool display);
  void ShellTransition(const WinscopeData& e);
  void ShellHandlers(const WinscopeData& e);
  void ViewCapture(int64_t ts, const WinscopeData& e);
  // The row of a rectangle in winscope_rect, added once per distinct rectangle.
  uint32_t RectId(const WinscopeData::Rect& r);
  // The same for a transform in winscope_transform.
  uint32_t TransformId(const WinscopeData::Transform& t);
  // Adds a winscope_trace_rect row (and its fill region's rows).
  uint32_t AddTraceRect(const WinscopeData::TraceRect& t);
  void SurfaceFlingerLayers(int64_t ts, const WinscopeData& e);

  TraceContext* ctx_;
  struct TransitionState {
    uint32_t row;
    std::vector<Arg> args;  // all its packets' args, a later value replacing an earlier one
  };
  absl::flat_hash_map<int64_t, TransitionState> transitions_;
  absl::flat_hash_map<std::tuple<double, double, double, double>, uint32_t> rects_;
  absl::flat_hash_map<std::tuple<double, double, double, double, double, double>, uint32_t>
      transforms_;
  absl::flat_hash_map<uint64_t, uint32_t> layer_flags_;
  absl::flat_hash_map<uint64_t, uint32_t> display_flags_;
};

}  // namespace tw
