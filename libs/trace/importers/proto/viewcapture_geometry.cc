#include "libs/trace/importers/proto/viewcapture_geometry.h"

#include "absl/container/flat_hash_map.h"

namespace tw {

std::vector<ViewPlacement> PlaceViews(const std::vector<ViewGeometry>& views) {
  struct Placed {
    ViewPlacement at;
    double scale_x = 1, scale_y = 1;  // the view's scale times its ancestors'
    double scroll_x = 0, scroll_y = 0;
  };
  absl::flat_hash_map<int32_t, Placed> by_id;
  std::vector<ViewPlacement> out;
  out.reserve(views.size());
  for (const ViewGeometry& v : views) {
    double left_shift = 0, top_shift = 0, sx = 1, sy = 1;
    uint32_t depth = 0;
    if (auto p = by_id.find(v.parent); p != by_id.end()) {
      left_shift = p->second.at.x - p->second.scroll_x;
      top_shift = p->second.at.y - p->second.scroll_y;
      depth = p->second.at.depth + 1;
      sx = p->second.scale_x;
      sy = p->second.scale_y;
    }
    Placed placed;
    placed.scale_x = sx * static_cast<double>(v.scale_x);
    placed.scale_y = sy * static_cast<double>(v.scale_y);
    const double width = v.width, height = v.height;
    // Scaling about the centre moves the left edge by half the width lost (or gained).
    const double left = left_shift + (v.left + static_cast<double>(v.translation_x)) * sx +
                        (width * (sx - placed.scale_x)) / 2;
    const double top = top_shift + (v.top + static_cast<double>(v.translation_y)) * sy +
                       (height * (sy - placed.scale_y)) / 2;
    const double right = left + width * placed.scale_x;
    const double bottom = top + height * placed.scale_y;
    placed.at = {left, top, right - left, bottom - top, depth};
    placed.scroll_x = v.scroll_x;
    placed.scroll_y = v.scroll_y;
    by_id[v.id] = placed;
    out.push_back(placed.at);
  }
  return out;
}

}  // namespace tw
