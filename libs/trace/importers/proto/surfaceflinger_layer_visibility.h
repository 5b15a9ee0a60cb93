#pragma once
// Whether each SurfaceFlinger layer is visible, as winscope decides it, and why not.
//
// A layer is visible in isolation when neither it nor an ancestor is hidden by policy, it has a
// colour with positive alpha, it has a buffer or an effect (a colour fill or a shadow), and its
// visible region is not empty (when the snapshot excludes composition state — the default —
// its bounds stand for the visible region). Walking the layers top to bottom, a visible layer
// becomes hidden when an opaque visible layer above it on the same layer stack contains it
// (screen bounds cropped to the display, rounded corners included); opaque layers that only
// overlap it partially occlude it, translucent ones that overlap it cover it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/surfaceflinger_layer_facts.h"

namespace tw::winscope {

struct LayerVisibility {
  bool computed = false;  // false for layers outside the drawing order
  bool is_visible = false;
  std::vector<std::string> reasons;  // why it is not visible, in winscope's fixed order
  std::vector<int32_t> occluded_by, partially_occluded_by, covered_by;  // layer ids
};

// One entry per layer of `snapshot` (same indexes); `top_to_bottom` from LayersTopToBottom.
std::vector<LayerVisibility> ComputeLayerVisibility(const SnapshotFacts& snapshot,
                                                    const std::vector<size_t>& top_to_bottom);

}  // namespace tw::winscope
