#pragma once
// What the SurfaceFlinger layer computations (drawing order, visibility, rects) need from a
// LayersSnapshotProto, decoded once into plain structs: each LayerProto and DisplayProto with
// presence kept where the rules depend on it (a missing colour hides a layer; a missing
// visible region means "not computed"). Field numbers are the winscope protos' (facts).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "libs/trace/importers/proto/winscope_geometry.h"

namespace tw::winscope {

struct ColorFacts {
  float r = 0, g = 0, b = 0, a = 0;
  bool has_a = false;
};

struct TransformFacts {
  int32_t type = 0;
  bool has_type = false;
  float dsdx = 0, dtdx = 0, dsdy = 0, dtdy = 0;
};

struct InputWindowFacts {
  uint32_t input_config = 0;
  std::optional<Rect> frame;
  std::optional<std::vector<Rect>> touchable_region;
  std::optional<bool> visible;
};

struct LayerFacts {
  std::optional<int32_t> id;
  std::optional<std::string_view> name;  // points into the decoded bytes
  std::optional<int32_t> parent;
  std::optional<int32_t> z_order_relative_of;
  int32_t z = 0;
  uint32_t layer_stack = 0;
  uint32_t flags = 0;
  bool is_opaque = false;
  std::optional<ColorFacts> color;
  // ActiveBufferProto: absent, or all of width/height/stride/format <= 0, is an empty buffer.
  bool has_buffer = false;
  float shadow_radius = 0;
  int32_t background_blur_radius = 0;
  std::optional<Rect> bounds, screen_bounds;
  std::optional<std::vector<Rect>> visible_region;
  std::optional<Point> position;
  std::optional<TransformFacts> transform;
  std::optional<CornerRadii> corner_radii, effective_radii;
  std::optional<float> corner_radius;
  std::optional<int32_t> hwc_composition_type;
  std::optional<float> border_width;
  int32_t border_color = 0;
  std::optional<InputWindowFacts> input;

  bool IsRoot() const { return !parent || *parent == -1; }
  // Hidden by its own flag (LAYER_FLAG_HIDDEN) or being the offscreen root.
  bool IsHiddenByPolicy() const;
  // The layer's matrix: its position, and its transform's type or (for scales and invalid
  // rotations) its matrix — whose off-diagonal terms SurfaceFlinger writes swapped.
  Transform Matrix() const;
  // corner_radii (or the legacy single corner_radius) plus the client-drawn effective_radii.
  CornerRadii Radii() const;
  // screen_bounds, cropped to `crop` when that is not empty; nullopt without screen bounds.
  std::optional<Rect> CroppedScreenBounds(const std::optional<Rect>& crop) const;
};

struct DisplayFacts {
  uint64_t id = 0;
  std::optional<std::string_view> name;
  uint32_t layer_stack = 0;
  bool is_virtual = false;
  int32_t width = 0, height = 0;
  bool has_size = false;
  std::optional<Rect> layer_stack_space_rect;
  std::optional<TransformFacts> transform;

  // The layer-stack-space rect (empty when absent).
  Rect LayerStackSpace() const { return layer_stack_space_rect.value_or(Rect{}); }
  // Width and height, swapped when the display is rotated by 90° or 270°.
  Rect Size() const;
  // The display's matrix: rotation from the transform type (or its matrix), translated so a
  // rotated layer stack lands back on the screen.
  Transform Matrix() const;
};

// LayerStack of a display that is off (ui::INVALID_LAYER_STACK).
inline constexpr uint32_t kInvalidLayerStack = 0xffffffffu;

struct SnapshotFacts {
  std::vector<LayerFacts> layers;  // in the proto's order
  std::vector<DisplayFacts> displays;
  std::optional<bool> excludes_composition_state;
  int64_t elapsed_realtime_nanos = 0;
};

// False if the bytes are not a well-formed message (what was read is kept).
bool DecodeSnapshotFacts(std::string_view bytes, SnapshotFacts* out);
bool DecodeLayerFacts(std::string_view bytes, LayerFacts* out);

}  // namespace tw::winscope
