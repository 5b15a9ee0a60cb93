#include "libs/trace/importers/proto/surfaceflinger_layer_visibility.h"

#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_map.h"

namespace tw::winscope {
namespace {

bool HasValidRgb(const ColorFacts& c) { return c.r >= 0 && c.g >= 0 && c.b >= 0; }

// A colour fill (positive alpha, valid rgb) or a shadow.
bool HasEffects(const LayerFacts& l) {
  if (l.shadow_radius > 0) return true;
  return l.color && l.color->a > 0 && HasValidRgb(*l.color);
}

bool HasZeroAlpha(const LayerFacts& l) {
  if (!l.color) return true;
  return l.color->a <= 0 && l.color->a > -1;
}

bool IsColorEmpty(const LayerFacts& l) {
  return !l.color || HasZeroAlpha(l) || !HasValidRgb(*l.color);
}

bool HasEmptyVisibleRegion(const LayerFacts& l) {
  if (!l.visible_region) return true;
  return std::all_of(l.visible_region->begin(), l.visible_region->end(),
                     [](const Rect& r) { return r.IsEmpty(); });
}

bool IsOpaque(const LayerFacts& l) { return l.color && l.color->a >= 1 && l.is_opaque; }

class Computation {
 public:
  explicit Computation(const SnapshotFacts& s) : s_(s) {
    for (size_t i = 0; i < s.layers.size(); ++i) {
      if (s.layers[i].id) by_id_.emplace(*s.layers[i].id, i);
    }
    // Without the flag, a snapshot is taken to leave composition state out.
    excludes_composition_state_ = s.excludes_composition_state.value_or(true);
  }

  std::vector<LayerVisibility> Run(const std::vector<size_t>& top_to_bottom) {
    std::vector<LayerVisibility> out(s_.layers.size());
    for (size_t i : top_to_bottom) out[i] = Visibility(s_.layers[i]);
    return out;
  }

 private:
  const LayerFacts* Parent(const LayerFacts& l) const {
    if (l.IsRoot()) return nullptr;
    auto it = by_id_.find(*l.parent);
    return it == by_id_.end() ? nullptr : &s_.layers[it->second];
  }

  bool IsHiddenByParent(const LayerFacts& l) const {
    size_t guard = s_.layers.size();  // a parent cycle ends the walk
    for (const LayerFacts* p = Parent(l); p && guard-- > 0; p = Parent(*p)) {
      if (p->IsHiddenByPolicy()) return true;
    }
    return false;
  }

  bool HasVisibleRegion(const LayerFacts& l) const {
    if (excludes_composition_state_) return l.bounds && !l.bounds->IsEmpty();
    return !HasEmptyVisibleRegion(l);
  }

  bool VisibleInIsolation(const LayerFacts& l) const {
    if (IsHiddenByParent(l) || l.IsHiddenByPolicy()) return false;
    if (!l.color || l.color->a <= 0) return false;
    if (!l.has_buffer && !HasEffects(l)) return false;
    return HasVisibleRegion(l);
  }

  // The layer-stack-space rect of the (last) display showing the layer's stack, else empty.
  Rect DisplayCrop(const LayerFacts& l) const {
    Rect crop;
    for (const DisplayFacts& d : s_.displays) {
      if (d.layer_stack == l.layer_stack && d.layer_stack_space_rect) {
        crop = *d.layer_stack_space_rect;
      }
    }
    return crop;
  }

  static std::optional<Rect> Bounds(const LayerFacts& l, const Rect& crop) {
    std::optional<Rect> b = l.CroppedScreenBounds(crop);
    if (b) b->radii = l.Radii();
    return b;
  }

  static bool Contains(const LayerFacts& outer, const LayerFacts& inner, const Rect& crop) {
    // An occluder with an invalid rotation has no trustworthy bounds. (trace_processor reads
    // the rotation of the occluder for both layers; so do we, to agree with it.)
    if (outer.transform && transform_type::IsInvalidRotation(outer.transform->type)) {
      return false;
    }
    const std::optional<Rect> o = Bounds(outer, crop), i = Bounds(inner, crop);
    return o && i && o->Contains(*i);
  }

  static bool Overlaps(const LayerFacts& a, const LayerFacts& b, const Rect& crop) {
    const std::optional<Rect> ra = a.CroppedScreenBounds(crop), rb = b.CroppedScreenBounds(crop);
    return ra && rb && ra->Intersects(*rb);
  }

  LayerVisibility Visibility(const LayerFacts& l) {
    LayerVisibility v;
    v.computed = true;
    v.is_visible = VisibleInIsolation(l);
    if (v.is_visible) {
      const Rect crop = DisplayCrop(l);
      for (const LayerFacts* above : opaque_above_) {
        if (above->layer_stack != l.layer_stack) continue;
        if (Contains(*above, l, crop)) {
          v.is_visible = false;
          v.occluded_by.push_back(*above->id);
        } else if (Overlaps(*above, l, crop)) {
          v.partially_occluded_by.push_back(*above->id);
        }
      }
      for (const LayerFacts* above : translucent_above_) {
        if (above->layer_stack == l.layer_stack && Overlaps(*above, l, crop)) {
          v.covered_by.push_back(*above->id);
        }
      }
      // Every layer visible on its own hides or covers those below, even if itself occluded.
      (IsOpaque(l) ? opaque_above_ : translucent_above_).push_back(&l);
    }
    if (!v.is_visible) v.reasons = Reasons(l, !v.occluded_by.empty());
    return v;
  }

  std::vector<std::string> Reasons(const LayerFacts& l, bool occluded) const {
    std::vector<std::string> r;
    if (l.IsHiddenByPolicy()) r.push_back("flag is hidden");
    if (IsHiddenByParent(l)) r.push_back("hidden by parent " + std::to_string(*l.parent));
    if (!l.has_buffer) r.push_back("buffer is empty");
    if (HasZeroAlpha(l)) r.push_back("alpha is 0");
    if (!l.bounds || l.bounds->IsEmpty()) {
      r.push_back("bounds is 0x0");
      if (IsColorEmpty(l)) r.push_back("crop is 0x0");
    }
    if (!l.Matrix().IsValid()) r.push_back("transform is invalid");
    if (!l.has_buffer && !HasEffects(l) && !(l.background_blur_radius > 0)) {
      r.push_back("does not have color fill, shadow or blur");
    }
    if (l.visible_region && HasEmptyVisibleRegion(l)) {
      r.push_back("visible region calculated by Composition Engine is empty");
    }
    if (!l.visible_region && !excludes_composition_state_) r.push_back("null visible region");
    if (occluded) r.push_back("occluded");
    return r;
  }

  const SnapshotFacts& s_;
  absl::flat_hash_map<int32_t, size_t> by_id_;
  bool excludes_composition_state_ = true;
  std::vector<const LayerFacts*> opaque_above_, translucent_above_;
};

}  // namespace

std::vector<LayerVisibility> ComputeLayerVisibility(const SnapshotFacts& snapshot,
                                                    const std::vector<size_t>& top_to_bottom) {
  return Computation(snapshot).Run(top_to_bottom);
}

}  // namespace tw::winscope
