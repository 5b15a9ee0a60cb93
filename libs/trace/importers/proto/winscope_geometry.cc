#include "libs/trace/importers/proto/winscope_geometry.h"

#include <algorithm>
#include <cmath>

namespace tw::winscope {
namespace {

constexpr double kCloseEnough = 0.01;    // pixels: winscope's tolerance for "the same edge"
constexpr double kEqualEnough = 1e-6;    // for exact comparisons of matrix products

bool Close(double a, double b) { return std::abs(a - b) < kCloseEnough; }
bool AtMost(double a, double b) { return a <= b || Close(a, b); }

bool InCircle(Point p, Point centre, double r) {
  const double dx = p.x - centre.x, dy = p.y - centre.y;
  return dx * dx + dy * dy <= r * r + kCloseEnough;
}

}  // namespace

bool Rect::IsAlmostEqual(const Rect& o) const {
  return Close(x, o.x) && Close(y, o.y) && Close(w, o.w) && Close(h, o.h);
}

Rect Rect::CropTo(const Rect& o) const {
  return FromEdges(std::max(x, o.x), std::max(y, o.y), std::min(x + w, o.x + o.w),
                   std::min(y + h, o.y + o.h));
}

bool Rect::Contains(const Rect& in) const {
  if (IsEmpty()) return false;
  const double right = x + w, bottom = y + h;
  const double in_right = in.x + in.w, in_bottom = in.y + in.h;
  if (!(AtMost(x, in.x) && AtMost(y, in.y) && AtMost(in_right, right) &&
        AtMost(in_bottom, bottom))) {
    return false;
  }
  // A corner of ours rounder than the inner rect's can cut it off: where our corner's circle
  // centre lies beyond the inner's (towards the corner), the inner's corner centre must fall
  // inside our circle.
  struct Corner {
    double outer_r, inner_r;
    Point outer_c, inner_c;
    bool beyond;  // the outer centre is not further inside than the inner one on both axes
  };
  const Corner corners[] = {
      {radii.tl, in.radii.tl, {x + radii.tl, y + radii.tl},
       {in.x + in.radii.tl, in.y + in.radii.tl}, false},
      {radii.tr, in.radii.tr, {right - radii.tr, y + radii.tr},
       {in_right - in.radii.tr, in.y + in.radii.tr}, false},
      {radii.bl, in.radii.bl, {x + radii.bl, bottom - radii.bl},
       {in.x + in.radii.bl, in_bottom - in.radii.bl}, false},
      {radii.br, in.radii.br, {right - radii.br, bottom - radii.br},
       {in_right - in.radii.br, in_bottom - in.radii.br}, false},
  };
  for (int i = 0; i < 4; ++i) {
    const Corner& c = corners[i];
    if (c.outer_r <= c.inner_r) continue;
    const bool top = i < 2, left = i % 2 == 0;
    const bool y_beyond = top ? c.outer_c.y >= c.inner_c.y : c.outer_c.y < c.inner_c.y;
    const bool x_beyond = left ? c.outer_c.x >= c.inner_c.x : c.outer_c.x < c.inner_c.x;
    if (y_beyond && x_beyond && !InCircle(c.inner_c, c.outer_c, c.outer_r)) return false;
  }
  return true;
}

bool Rect::Intersects(const Rect& o) const {
  if (!(x < o.x + o.w && o.x < x + w && y <= o.y + o.h && o.y <= y + h)) return false;
  // The overlap as winscope measures it: our origin moved into the other's, our size capped
  // by the other's where we stick out past its far edge.
  const double nx = std::max(x, o.x), ny = std::max(y, o.y);
  const double nw = x + w > o.x + o.w ? o.w : w;
  const double nh = y + h > o.y + o.h ? o.h : h;
  return !Rect{nx, ny, nw, nh, {}}.IsEmpty();
}

Point Transform::Apply(Point p) const {
  return {dsdx * p.x + dtdx * p.y + tx, dtdy * p.x + dsdy * p.y + ty};
}

Rect Transform::Apply(const Rect& r) const {
  const Point a = Apply(Point{r.x, r.y});
  const Point b = Apply(Point{r.x + r.w, r.y + r.h});
  return Rect::FromEdges(std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x),
                         std::max(a.y, b.y));
}

Transform Transform::Inverse() const {
  const double inv_det = 1.0 / (dsdx * dsdy - dtdx * dtdy);
  Transform inv{dsdy * inv_det, -dtdx * inv_det, 0, -dtdy * inv_det, dsdx * inv_det, 0};
  const Point t = inv.Apply(Point{-tx, -ty});
  inv.tx = t.x;
  inv.ty = t.y;
  return inv;
}

bool Transform::IsValid() const { return std::abs(dsdx * dsdy - dtdx * dtdy) >= kEqualEnough; }

Transform TransformOfType(int type, double x, double y) {
  using namespace transform_type;
  if (type != 0) {
    // Checked from the most flags to the fewest: a 270° rotation also has the 180° and 90° bits.
    if (IsRot270(type)) return Transform{0, -1, x, 1, 0, y};
    if (IsRot180(type)) return Transform{-1, 0, x, 0, -1, y};
    if (IsRot90(type)) return Transform{0, 1, x, -1, 0, y};
  }
  return Transform{1, 0, x, 0, 1, y};
}

}  // namespace tw::winscope
