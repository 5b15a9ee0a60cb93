#pragma once
// Where the views of a ViewCapture snapshot are drawn, as winscope (and trace_processor) place
// them: a view's rect is its position (left/top plus translation) in its parent's coordinates,
// offset by the parent's position minus the parent's scroll, scaled by every ancestor's scale,
// and scaled by its own scale about its centre; its depth is its level in the tree.

#include <cstdint>
#include <vector>

namespace tw {

struct ViewGeometry {
  int32_t id = 0;
  int32_t parent = -1;
  int32_t left = 0, top = 0, width = 0, height = 0, scroll_x = 0, scroll_y = 0;
  float translation_x = 0, translation_y = 0, scale_x = 0, scale_y = 0;
};

struct ViewPlacement {
  double x = 0, y = 0, w = 0, h = 0;  // window coordinates, pixels
  uint32_t depth = 0;                 // 0 for a view whose parent is not placed (the root)
};

// `views` in drawing order (every parent before its children); one placement per view.
std::vector<ViewPlacement> PlaceViews(const std::vector<ViewGeometry>& views);

}  // namespace tw
