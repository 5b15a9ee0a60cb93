#pragma once
// SurfaceFlinger's drawing order of a snapshot's layers (FrontEnd/readme.md in SurfaceFlinger):
// a layer is drawn under its z-parent (its relative-z layer, else its parent) together with its
// siblings, children sorted by (z, id) — children with negative z below the parent, the rest
// above. Layers with neither a root position nor a z-parent in the snapshot are not drawn.

#include <cstddef>
#include <vector>

#include "libs/trace/importers/proto/surfaceflinger_layer_facts.h"

namespace tw::winscope {

// Indexes into `layers` (only layers with an id), topmost first.
std::vector<size_t> LayersTopToBottom(const std::vector<LayerFacts>& layers);

}  // namespace tw::winscope
