#pragma once
// Plane geometry of winscope traces (SurfaceFlinger layers, input windows, displays): rects
// with per-corner radii, and the affine transforms SurfaceFlinger applies to them. The
// tolerances are winscope's: two rects are "almost equal" within 0.01 px, and containment
// allows the same slack, so float noise in a trace does not flip a layer's visibility.

#include <vector>

namespace tw::winscope {

struct CornerRadii {
  double tl = 0, tr = 0, bl = 0, br = 0;
};

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
  CornerRadii radii;  // only containment looks at them

  static Rect FromEdges(double left, double top, double right, double bottom) {
    return Rect{left, top, right - left, bottom - top, {}};
  }
  bool IsEmpty() const { return w <= 0 || h <= 0; }
  // Every edge within 0.01 px of the other's.
  bool IsAlmostEqual(const Rect& other) const;
  // The intersection (may be empty: negative or zero size).
  Rect CropTo(const Rect& other) const;
  // Whether `inner` lies inside this rect, rounded corners included (a corner's curve cuts
  // off what a square corner would contain).
  bool Contains(const Rect& inner) const;
  // Whether the two share an area.
  bool Intersects(const Rect& other) const;
};

struct Point {
  double x = 0, y = 0;
};

// | dsdx dtdx tx |
// | dtdy dsdy ty |
struct Transform {
  double dsdx = 1, dtdx = 0, tx = 0, dtdy = 0, dsdy = 1, ty = 0;

  Point Apply(Point p) const;
  // The bounding box of the rect's two corners, transformed.
  Rect Apply(const Rect& r) const;
  Transform Inverse() const;
  // False when the matrix is singular (its determinant is ~0).
  bool IsValid() const;
};

// SurfaceFlinger's transform type flags (ui/Transform.h) and the matrix a type stands for.
namespace transform_type {
inline constexpr int kScale = 0x0004, kFlipH = 0x0100, kFlipV = 0x0200, kRot90 = 0x0400,
                     kRotInvalid = 0x8000;
inline bool Has(int type, int flags) { return (type & flags) == flags; }
inline bool IsRot90(int type) { return Has(type, kRot90); }
inline bool IsRot180(int type) { return Has(type, kFlipH | kFlipV); }
inline bool IsRot270(int type) { return Has(type, kRot90 | kFlipH | kFlipV); }
inline bool IsInvalidRotation(int type) { return Has(type, kRotInvalid); }
// A rotation or translation only: the type alone gives the matrix.
inline bool IsSimple(int type) { return (type & (kRotInvalid | kScale)) == 0; }
}  // namespace transform_type

// The matrix of a simple transform `type` translated by (x, y).
Transform TransformOfType(int type, double x, double y);

}  // namespace tw::winscope
