// Winscope's plane geometry: tolerant rect comparisons, containment with rounded corners,
// and SurfaceFlinger's transforms.

#include "libs/trace/importers/proto/winscope_geometry.h"

#include <gtest/gtest.h>

namespace tw::winscope {
namespace {

TEST(WinscopeGeometry, AlmostEqualToleratesFloatNoiseOnly) {
  const Rect a = Rect::FromEdges(-50, -100, 50, 100);
  EXPECT_TRUE(a.IsAlmostEqual(Rect::FromEdges(-49.995, -100, 50, 100)));
  EXPECT_FALSE(a.IsAlmostEqual(Rect::FromEdges(-49.98, -100, 50, 100)));
}

TEST(WinscopeGeometry, CropIsTheIntersection) {
  const Rect r = Rect::FromEdges(-999, -999, 999, 999).CropTo(Rect::FromEdges(0, 0, 5, 10));
  EXPECT_DOUBLE_EQ(r.x, 0);
  EXPECT_DOUBLE_EQ(r.y, 0);
  EXPECT_DOUBLE_EQ(r.w, 5);
  EXPECT_DOUBLE_EQ(r.h, 10);
  EXPECT_TRUE(Rect::FromEdges(0, 0, 1, 1).CropTo(Rect::FromEdges(2, 2, 3, 3)).IsEmpty());
}

TEST(WinscopeGeometry, RoundedCornersCutOffWhatASquareCornerWouldContain) {
  Rect outer = Rect::FromEdges(0, 0, 100, 100);
  const Rect inner = Rect::FromEdges(0, 0, 100, 100);
  EXPECT_TRUE(outer.Contains(inner));
  outer.radii.tl = 20;  // the inner rect's square top-left corner sticks out of the curve
  EXPECT_FALSE(outer.Contains(inner));
  Rect rounded_inner = inner;
  rounded_inner.radii.tl = 20;  // equally round: contained again
  EXPECT_TRUE(outer.Contains(rounded_inner));
  // Away from the corner, the curve does not matter.
  EXPECT_TRUE(outer.Contains(Rect::FromEdges(30, 30, 100, 100)));
  EXPECT_FALSE(Rect::FromEdges(0, 0, 0, 10).Contains(Rect::FromEdges(0, 0, 0, 10)));
}

TEST(WinscopeGeometry, IntersectionNeedsASharedArea) {
  const Rect a = Rect::FromEdges(0, 0, 10, 10);
  EXPECT_TRUE(a.Intersects(Rect::FromEdges(5, 5, 20, 20)));
  EXPECT_FALSE(a.Intersects(Rect::FromEdges(10, 0, 20, 10)));  // only an edge in common
  EXPECT_FALSE(a.Intersects(Rect::FromEdges(20, 20, 30, 30)));
}

TEST(WinscopeGeometry, RotationTypesAndInverses) {
  const Transform rot90 = TransformOfType(transform_type::kRot90, 0, 10);
  const Rect r = rot90.Apply(Rect::FromEdges(0, 0, 5, 2));
  // (x, y) -> (y, 10 - x)
  EXPECT_DOUBLE_EQ(r.x, 0);
  EXPECT_DOUBLE_EQ(r.y, 5);
  EXPECT_DOUBLE_EQ(r.w, 2);
  EXPECT_DOUBLE_EQ(r.h, 5);
  const Rect back = rot90.Inverse().Apply(r);
  EXPECT_DOUBLE_EQ(back.x, 0);
  EXPECT_DOUBLE_EQ(back.w, 5);
  EXPECT_DOUBLE_EQ(back.h, 2);
  // A 270° rotation also carries the 180° and 90° bits; it must not be read as either.
  const Transform rot270 =
      TransformOfType(transform_type::kRot90 | transform_type::kFlipH | transform_type::kFlipV,
                      0, 0);
  EXPECT_DOUBLE_EQ(rot270.dtdx, -1);
  EXPECT_DOUBLE_EQ(rot270.dtdy, 1);
  const Transform shift = TransformOfType(0, 3, 4);
  EXPECT_DOUBLE_EQ(shift.Inverse().tx, -3);
  EXPECT_DOUBLE_EQ(shift.Inverse().ty, -4);
  EXPECT_TRUE(shift.IsValid());
  EXPECT_FALSE((Transform{0, 0, 0, 0, 0, 0}).IsValid());
}

}  // namespace
}  // namespace tw::winscope
