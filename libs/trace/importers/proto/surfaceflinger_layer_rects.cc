#include "libs/trace/importers/proto/surfaceflinger_layer_rects.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"

namespace tw::winscope {
namespace {

// InputConfig bits (frameworks/native/libs/input/android/os/InputConfig.aidl).
constexpr uint32_t kNotTouchable = 1u << 3, kIsWallpaper = 1u << 6, kSpy = 1u << 14;

WinscopeData::Rect ToEvent(const Rect& r) { return {r.x, r.y, r.w, r.h}; }
WinscopeData::Transform ToEvent(const Transform& t) {
  return {t.dsdx, t.dtdx, t.tx, t.dtdy, t.dsdy, t.ty};
}

// SurfaceFlinger gives a layer without bounds of its own bounds ten times the largest display
// (in either orientation); the largest differs by when the layer was made, so every display's
// size and the maximum over them all count.
std::vector<Rect> InfiniteBounds(const SnapshotFacts& s) {
  std::vector<Rect> out;
  if (s.displays.empty()) return out;
  auto add = [&](double w, double h) {
    const double x = w * 10, y = h * 10;
    const Rect bounds = Rect::FromEdges(-x, -y, x, y);
    out.push_back(bounds);
    out.push_back(Rect::FromEdges(bounds.y, bounds.x, bounds.y + bounds.h, bounds.x + bounds.w));
  };
  double max_w = 0, max_h = 0;
  for (const DisplayFacts& d : s.displays) {
    const Rect size = d.Size();
    add(size.w, size.h);
    max_w = std::max(max_w, size.w);
    max_h = std::max(max_h, size.h);
  }
  add(max_w, max_h);
  return out;
}

bool AlmostAnyOf(const Rect& r, const std::vector<Rect>& candidates) {
  return std::any_of(candidates.begin(), candidates.end(),
                     [&](const Rect& c) { return r.IsAlmostEqual(c); });
}

const Rect kDefaultInfiniteBounds = Rect::FromEdges(-50000, -50000, 50000, 50000);

}  // namespace

std::vector<WinscopeData::TraceRect> DisplayRects(const SnapshotFacts& snapshot) {
  std::vector<WinscopeData::TraceRect> out;
  for (size_t i = 0; i < snapshot.displays.size(); ++i) {
    const DisplayFacts& d = snapshot.displays[i];
    Rect r = d.LayerStackSpace();
    if (r.IsEmpty()) r = d.Size();
    WinscopeData::TraceRect t;
    t.rect = ToEvent(r);
    t.group_id = d.layer_stack;
    t.depth = static_cast<uint32_t>(i);
    out.push_back(t);
  }
  return out;
}

LayerRects ComputeLayerRects(const SnapshotFacts& s, const std::vector<size_t>& top_to_bottom,
                             const std::vector<LayerVisibility>& visibility) {
  LayerRects out;
  out.bounds_rect.resize(s.layers.size());
  out.input_rect.resize(s.layers.size());

  // Per layer stack: the display's layer-stack rect and matrix (the last display wins), and
  // the next depth of bounds and of input rects.
  absl::flat_hash_map<uint32_t, Rect> display_space;
  absl::flat_hash_map<uint32_t, Transform> display_matrix;
  absl::flat_hash_map<uint32_t, uint32_t> bounds_z, input_z;
  for (const DisplayFacts& d : s.displays) {
    display_space[d.layer_stack] = d.LayerStackSpace();
    display_matrix[d.layer_stack] = d.Matrix();
    bounds_z[d.layer_stack] = 1;
    input_z[d.layer_stack] = 1;
  }
  const std::vector<Rect> infinite = InfiniteBounds(s);

  for (auto it = top_to_bottom.rbegin(); it != top_to_bottom.rend(); ++it) {
    const size_t index = *it;
    const LayerFacts& l = s.layers[index];
    const bool visible = visibility[index].is_visible;
    const Transform matrix = l.Matrix();

    if (l.screen_bounds) {
      const Rect& screen = *l.screen_bounds;
      if (visible || (!AlmostAnyOf(screen, infinite) &&
                      !screen.IsAlmostEqual(kDefaultInfiniteBounds))) {
        WinscopeData::TraceRect t;
        t.rect = ToEvent(l.bounds.value_or(Rect{}));
        t.group_id = l.layer_stack;
        uint32_t& z = bounds_z[l.layer_stack];
        t.depth = z++;
        t.is_visible = visible;
        // Opacity is the colour's alpha; a visible layer without one is drawn as 0.
        if (l.color && l.color->has_a) {
          t.opacity = l.color->a;
        } else if (visible) {
          t.opacity = 0;
        }
        if (l.border_width && *l.border_width > 0) {
          t.border_width = *l.border_width;
          t.border_color = static_cast<uint32_t>(l.border_color);
        }
        t.transform = ToEvent(matrix);
        out.bounds_rect[index] = out.rects.size();
        out.rects.push_back(std::move(t));
      }
    }

    if (!l.input) continue;
    const InputWindowFacts& in = *l.input;
    const Transform to_layer = matrix.Inverse();
    std::optional<Transform> display_m;
    if (auto d = display_matrix.find(l.layer_stack); d != display_matrix.end()) {
      display_m = d->second;
    }
    auto to_layer_space = [&](Rect r) {
      if (display_m) r = display_m->Apply(r);
      return to_layer.Apply(r);
    };
    Rect frame = in.frame ? to_layer_space(*in.frame) : Rect{};
    std::optional<Rect> crop;
    if (auto d = display_space.find(l.layer_stack); d != display_space.end()) {
      if (frame.IsEmpty() || (in.input_config & kIsWallpaper) != 0 ||
          AlmostAnyOf(frame, infinite)) {
        crop = d->second;
        frame = frame.CropTo(*crop);
      }
    }
    WinscopeData::TraceRect t;
    t.rect = ToEvent(frame);
    t.group_id = l.layer_stack;
    uint32_t& z = input_z[l.layer_stack];
    t.depth = z++;
    t.transform = ToEvent(matrix);
    t.is_spy = (in.input_config & kSpy) != 0;
    t.is_visible = in.visible.value_or(visible);
    if ((in.input_config & kNotTouchable) != 0) {
      t.fill_region.emplace();
    } else if (in.touchable_region) {
      t.fill_region.emplace();
      for (const Rect& r : *in.touchable_region) {
        Rect mapped = to_layer_space(r);
        if (crop) mapped = mapped.CropTo(*crop);
        t.fill_region->push_back(ToEvent(mapped));
      }
    }
    // A region that takes no touches is drawn as one empty rect.
    if (t.fill_region && t.fill_region->empty()) t.fill_region->push_back({});
    out.input_rect[index] = out.rects.size();
    out.rects.push_back(std::move(t));
  }
  return out;
}

}  // namespace tw::winscope
