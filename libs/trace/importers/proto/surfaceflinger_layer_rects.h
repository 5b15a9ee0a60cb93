#pragma once
// The rects winscope draws for a SurfaceFlinger snapshot: each display's layer-stack rect, and,
// walking the layers bottom to top, each layer's bounds and its input window's frame. Bounds
// and input frames each get their own z counter per layer stack (starting at 1 on a stack a
// display shows). A hidden layer whose screen bounds are SurfaceFlinger's "infinite" bounds
// (10x the largest display, either way round, or ±50000) is not drawn. Input frames are
// mapped from display space into the layer's space; a frame that is empty, a wallpaper's, or
// infinite is cropped to its display, and its touchable region (nothing, when the window is not
// touchable) is kept as its fill region.

#include <cstddef>
#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/importers/proto/surfaceflinger_layer_facts.h"
#include "libs/trace/importers/proto/surfaceflinger_layer_visibility.h"

namespace tw::winscope {

// One rect per display, depth = its index, group = its layer stack.
std::vector<WinscopeData::TraceRect> DisplayRects(const SnapshotFacts& snapshot);

struct LayerRects {
  std::vector<WinscopeData::TraceRect> rects;  // in the order computed
  // Per layer (same indexes as the snapshot's layers): its bounds and input rects, if drawn.
  std::vector<std::optional<size_t>> bounds_rect, input_rect;
};

LayerRects ComputeLayerRects(const SnapshotFacts& snapshot,
                             const std::vector<size_t>& top_to_bottom,
                             const std::vector<LayerVisibility>& visibility);

}  // namespace tw::winscope
