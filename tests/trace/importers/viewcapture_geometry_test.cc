#include "libs/trace/importers/proto/viewcapture_geometry.h"

#include <gtest/gtest.h>

namespace tw {
namespace {

ViewGeometry View(int32_t id, int32_t parent, int32_t left, int32_t top, int32_t w, int32_t h) {
  ViewGeometry v;
  v.id = id;
  v.parent = parent;
  v.left = left;
  v.top = top;
  v.width = w;
  v.height = h;
  v.scale_x = 1;
  v.scale_y = 1;
  return v;
}

TEST(ViewCaptureGeometryTest, ChildrenAreOffsetByTheParentScrolledAndScaledAboutTheirCentre) {
  ViewGeometry root = View(0, -1, 0, 0, 10, 20);
  root.scroll_x = 2;
  root.scroll_y = 3;
  ViewGeometry child = View(1, 0, 1, 1, 4, 4);
  child.translation_x = 0.5f;
  child.translation_y = 0.5f;
  child.scale_x = 0.5f;
  child.scale_y = 0.5f;
  const ViewGeometry grandchild = View(2, 1, 2, 0, 2, 2);  // inherits the child's scale
  const std::vector<ViewPlacement> p = PlaceViews({root, child, grandchild});
  ASSERT_EQ(p.size(), 3u);
  EXPECT_DOUBLE_EQ(p[0].x, 0);
  EXPECT_DOUBLE_EQ(p[0].w, 10);
  EXPECT_DOUBLE_EQ(p[0].h, 20);
  EXPECT_EQ(p[0].depth, 0u);
  // (1 + 0.5) - scroll 2, plus half the 2 px lost to the 0.5 scale.
  EXPECT_DOUBLE_EQ(p[1].x, 0.5);
  EXPECT_DOUBLE_EQ(p[1].y, -0.5);
  EXPECT_DOUBLE_EQ(p[1].w, 2);
  EXPECT_DOUBLE_EQ(p[1].h, 2);
  EXPECT_EQ(p[1].depth, 1u);
  EXPECT_DOUBLE_EQ(p[2].x, 1.5);
  EXPECT_DOUBLE_EQ(p[2].y, -0.5);
  EXPECT_DOUBLE_EQ(p[2].w, 1);
  EXPECT_EQ(p[2].depth, 2u);
}

TEST(ViewCaptureGeometryTest, AViewWhoseParentIsNotPlacedStartsAtTheWindowOrigin) {
  const std::vector<ViewPlacement> p = PlaceViews({View(9, 7, 3, 4, 5, 6)});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_DOUBLE_EQ(p[0].x, 3);
  EXPECT_DOUBLE_EQ(p[0].y, 4);
  EXPECT_DOUBLE_EQ(p[0].w, 5);
  EXPECT_EQ(p[0].depth, 0u);
}

}  // namespace
}  // namespace tw
