#include "libs/trace/importers/proto/surfaceflinger_layer_facts.h"

#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw::winscope {
namespace {

// Field numbers (wire-format facts of surfaceflinger_layers.proto and its common protos).
namespace snapshot_field {  // LayersSnapshotProto
constexpr uint32_t kElapsedRealtimeNanos = 1, kLayers = 3, kExcludesCompositionState = 5,
                   kDisplays = 7;
}
namespace layers_field { constexpr uint32_t kLayers = 1; }  // LayersProto
namespace layer_field {  // LayerProto
constexpr uint32_t kId = 1, kName = 2, kVisibleRegion = 7, kLayerStack = 9, kZ = 10, kPosition = 11,
                   kIsOpaque = 16, kColor = 20, kFlags = 22, kTransform = 23, kParent = 25,
                   kZOrderRelativeOf = 26, kActiveBuffer = 27, kHwcCompositionType = 35,
                   kCornerRadius = 41, kBounds = 45, kScreenBounds = 46,
                   kInputWindowInfo = 47, kShadowRadius = 49, kBackgroundBlurRadius = 52,
                   kCornerRadii = 61, kBorderSettings = 66, kEffectiveRadii = 67;
}
namespace display_field {  // DisplayProto
constexpr uint32_t kId = 1, kName = 2, kLayerStack = 3, kSize = 4, kLayerStackSpaceRect = 5,
                   kTransform = 6, kIsVirtual = 7;
}
namespace input_field {  // InputWindowInfoProto
constexpr uint32_t kFrame = 3, kTouchableRegion = 4, kVisible = 6, kInputConfig = 17;
}
namespace region_field { constexpr uint32_t kRect = 2; }  // RegionProto

constexpr uint32_t kLayerFlagHidden = 0x01;
constexpr int32_t kOffscreenLayerRootId = 0x7ffffffd;

// RectProto (int32 edges) and FloatRectProto (float edges); a missing edge is 0.
Rect ReadRect(const proto::Field& f, bool floats) {
  double e[4] = {0, 0, 0, 0};  // left, top, right, bottom
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id < 1 || x.id > 4) continue;
    e[x.id - 1] = floats ? static_cast<double>(x.as_float()) : x.as_int32();
  }
  return Rect::FromEdges(e[0], e[1], e[2], e[3]);
}

std::vector<Rect> ReadRegion(const proto::Field& f) {
  std::vector<Rect> rects;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == region_field::kRect && x.type == proto::kLengthDelimited) {
      rects.push_back(ReadRect(x, false));
    }
  }
  return rects;
}

ColorFacts ReadColor(const proto::Field& f) {
  ColorFacts c;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case 1: c.r = x.as_float(); break;
      case 2: c.g = x.as_float(); break;
      case 3: c.b = x.as_float(); break;
      case 4: c.a = x.as_float(); c.has_a = true; break;
      default: break;
    }
  }
  return c;
}

TransformFacts ReadTransform(const proto::Field& f) {
  TransformFacts t;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case 1: t.dsdx = x.as_float(); break;
      case 2: t.dtdx = x.as_float(); break;
      case 3: t.dsdy = x.as_float(); break;
      case 4: t.dtdy = x.as_float(); break;
      case 5: t.type = x.as_int32(); t.has_type = true; break;
      default: break;
    }
  }
  return t;
}

CornerRadii ReadRadii(const proto::Field& f) {
  CornerRadii r;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    const double v = x.as_float();
    switch (x.id) {
      case 1: r.tl = v; break;
      case 2: r.tr = v; break;
      case 3: r.bl = v; break;
      case 4: r.br = v; break;
      default: break;
    }
  }
  return r;
}

bool BufferIsEmpty(const proto::Field& f) {
  int64_t width = 0, height = 0, stride = 0, format = 0;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case 1: width = x.as_uint32(); break;
      case 2: height = x.as_uint32(); break;
      case 3: stride = x.as_uint32(); break;
      case 4: format = x.as_int32(); break;
      default: break;
    }
  }
  return width <= 0 && height <= 0 && stride <= 0 && format <= 0;
}

InputWindowFacts ReadInput(const proto::Field& f) {
  InputWindowFacts in;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case input_field::kFrame: in.frame = ReadRect(x, false); break;
      case input_field::kTouchableRegion: in.touchable_region = ReadRegion(x); break;
      case input_field::kVisible: in.visible = x.as_bool(); break;
      case input_field::kInputConfig: in.input_config = x.as_uint32(); break;
      default: break;
    }
  }
  return in;
}

DisplayFacts ReadDisplay(const proto::Field& f) {
  DisplayFacts disp;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case display_field::kId: disp.id = x.as_uint64(); break;
      case display_field::kName: disp.name = x.as_string(); break;
      case display_field::kLayerStack: disp.layer_stack = x.as_uint32(); break;
      case display_field::kSize: {
        disp.has_size = true;
        proto::Decoder sd(x);
        proto::Field s;
        while (sd.Next(&s)) {
          if (s.id == 1) disp.width = s.as_int32();
          if (s.id == 2) disp.height = s.as_int32();
        }
        break;
      }
      case display_field::kLayerStackSpaceRect:
        disp.layer_stack_space_rect = ReadRect(x, false);
        break;
      case display_field::kTransform: disp.transform = ReadTransform(x); break;
      case display_field::kIsVirtual: disp.is_virtual = x.as_bool(); break;
      default: break;
    }
  }
  return disp;
}

}  // namespace

bool DecodeLayerFacts(std::string_view bytes, LayerFacts* out) {
  LayerFacts& l = *out;
  proto::Decoder d(bytes);
  proto::Field x;
  while (d.Next(&x)) {
    const bool message = x.type == proto::kLengthDelimited;
    switch (x.id) {
      case layer_field::kId: l.id = x.as_int32(); break;
      case layer_field::kParent: l.parent = x.as_int32(); break;
      case layer_field::kZOrderRelativeOf: l.z_order_relative_of = x.as_int32(); break;
      case layer_field::kZ: l.z = x.as_int32(); break;
      case layer_field::kLayerStack: l.layer_stack = x.as_uint32(); break;
      case layer_field::kFlags: l.flags = x.as_uint32(); break;
      case layer_field::kIsOpaque: l.is_opaque = x.as_bool(); break;
      case layer_field::kShadowRadius: l.shadow_radius = x.as_float(); break;
      case layer_field::kBackgroundBlurRadius: l.background_blur_radius = x.as_int32(); break;
      case layer_field::kCornerRadius: l.corner_radius = x.as_float(); break;
      case layer_field::kHwcCompositionType: l.hwc_composition_type = x.as_int32(); break;
      default:
        if (!message) break;
        switch (x.id) {
          case layer_field::kName: l.name = x.as_string(); break;
          case layer_field::kColor: l.color = ReadColor(x); break;
          case layer_field::kActiveBuffer: l.has_buffer = !BufferIsEmpty(x); break;
          case layer_field::kBounds: l.bounds = ReadRect(x, true); break;
          case layer_field::kScreenBounds: l.screen_bounds = ReadRect(x, true); break;
          case layer_field::kVisibleRegion: l.visible_region = ReadRegion(x); break;
          case layer_field::kTransform: l.transform = ReadTransform(x); break;
          case layer_field::kCornerRadii: l.corner_radii = ReadRadii(x); break;
          case layer_field::kEffectiveRadii: l.effective_radii = ReadRadii(x); break;
          case layer_field::kInputWindowInfo: l.input = ReadInput(x); break;
          case layer_field::kPosition: {
            Point p;
            proto::Decoder pd(x);
            proto::Field y;
            while (pd.Next(&y)) {
              if (y.id == 1) p.x = y.as_float();
              if (y.id == 2) p.y = y.as_float();
            }
            l.position = p;
            break;
          }
          case layer_field::kBorderSettings: {
            float width = 0;
            proto::Decoder bd(x);
            proto::Field y;
            while (bd.Next(&y)) {
              if (y.id == 1) width = y.as_float();
              if (y.id == 2) l.border_color = y.as_int32();
            }
            l.border_width = width;
            break;
          }
          default: break;
        }
    }
  }
  return !d.error();
}

bool DecodeSnapshotFacts(std::string_view bytes, SnapshotFacts* out) {
  bool ok = true;
  proto::Decoder d(bytes);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case snapshot_field::kElapsedRealtimeNanos: out->elapsed_realtime_nanos = x.as_int64(); break;
      case snapshot_field::kExcludesCompositionState:
        out->excludes_composition_state = x.as_bool();
        break;
      case snapshot_field::kDisplays:
        if (x.type == proto::kLengthDelimited) out->displays.push_back(ReadDisplay(x));
        break;
      case snapshot_field::kLayers: {
        if (x.type != proto::kLengthDelimited) break;
        proto::Decoder ld(x);
        proto::Field layer;
        while (ld.Next(&layer)) {
          if (layer.id != layers_field::kLayers || layer.type != proto::kLengthDelimited) continue;
          LayerFacts facts;
          ok &= DecodeLayerFacts(layer.as_string(), &facts);
          out->layers.push_back(std::move(facts));
        }
        ok &= !ld.error();
        break;
      }
      default: break;
    }
  }
  return ok && !d.error();
}

bool LayerFacts::IsHiddenByPolicy() const {
  return (flags & kLayerFlagHidden) != 0 || (id && *id == kOffscreenLayerRootId);
}

Transform LayerFacts::Matrix() const {
  const double x = position ? position->x : 0, y = position ? position->y : 0;
  if (!transform) return Transform{1, 0, x, 0, 1, y};
  if (transform_type::IsSimple(transform->type)) return TransformOfType(transform->type, x, y);
  // SurfaceFlinger's deprecated proto writer (LayerProtoHelper::writeToProtoDeprecated) puts
  // three of the terms in each other's fields: read each from where it was written.
  return Transform{transform->dsdx, transform->dsdy, x, transform->dtdx, transform->dtdy, y};
}

CornerRadii LayerFacts::Radii() const {
  CornerRadii r;
  const bool has_radii = corner_radii && (corner_radii->tl > 0 || corner_radii->tr > 0 ||
                                          corner_radii->bl > 0 || corner_radii->br > 0);
  if (has_radii) {
    r = *corner_radii;
  } else if (corner_radius) {
    r.tl = r.tr = r.bl = r.br = *corner_radius;
  }
  if (effective_radii) {  // the client draws these itself, on top of SurfaceFlinger's
    r.tl += effective_radii->tl;
    r.tr += effective_radii->tr;
    r.bl += effective_radii->bl;
    r.br += effective_radii->br;
  }
  return r;
}

std::optional<Rect> LayerFacts::CroppedScreenBounds(const std::optional<Rect>& crop) const {
  if (!screen_bounds) return std::nullopt;
  if (crop && !crop->IsEmpty()) return screen_bounds->CropTo(*crop);
  return *screen_bounds;
}

Rect DisplayFacts::Size() const {
  if (!has_size) return Rect{};
  const bool sideways =
      transform && (transform_type::IsRot90(transform->type) || transform_type::IsRot270(transform->type));
  return sideways ? Rect{0, 0, static_cast<double>(height), static_cast<double>(width), {}}
                  : Rect{0, 0, static_cast<double>(width), static_cast<double>(height), {}};
}

Transform DisplayFacts::Matrix() const {
  if (!transform) return Transform{};
  Transform m = transform_type::IsSimple(transform->type)
                    ? TransformOfType(transform->type, 0, 0)
                    : Transform{transform->dsdx, transform->dtdx, 0, transform->dtdy,
                                transform->dsdy, 0};
  // Rotating the layer stack moves it off the screen; SurfaceFlinger (ui::Transform::set)
  // translates it back by the rotated side.
  if (transform->has_type && layer_stack_space_rect) {
    const Rect space = *layer_stack_space_rect;
    if (transform_type::IsRot180(transform->type)) {
      m.tx = space.w;
      m.ty = space.h;
    } else if (transform_type::IsRot270(transform->type)) {
      m.tx = space.w;
    } else if (transform_type::IsRot90(transform->type)) {
      m.ty = space.h;
    }
  }
  return m;
}

}  // namespace tw::winscope
