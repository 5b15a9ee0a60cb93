// experimental_slice_layout: the layout on its own (slice_layout.h), then the table function
// over a hand-built trace (slice_layout_table.h).

#include "libs/trace/query/slice_layout.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::HasSubstr;
using testing::Rows;
using Table = std::vector<std::vector<std::string>>;

// The layout depth of each slice, in id order.
std::vector<int64_t> Depths(const std::vector<LayoutSlice>& slices) {
  std::vector<int64_t> out;
  for (const LayoutDepth& d : ComputeSliceLayout(slices)) out.push_back(d.layout_depth);
  return out;
}

TEST(SliceLayoutTest, AStackKeepsItsOwnDepths) {
  EXPECT_EQ(Depths({{1, 0, 10, 0, -1}, {2, 0, 8, 1, 1}, {3, 2, 3, 2, 2}, {4, 5, 2, 1, 1}}),
            (std::vector<int64_t>{0, 1, 2, 1}));
}

TEST(SliceLayoutTest, OverlappingStacksOfOtherTracksGoBelow) {
  // Track A: [0,10) with a child; track B: [5,15) alone, overlapping A in time.
  EXPECT_EQ(Depths({{1, 0, 10, 0, -1}, {2, 0, 5, 1, 1}, {3, 5, 10, 0, -1}}),
            (std::vector<int64_t>{0, 1, 2}));
}

TEST(SliceLayoutTest, StacksThatOnlyTouchShareADepth) {
  EXPECT_EQ(Depths({{1, 0, 10, 0, -1}, {2, 10, 10, 0, -1}, {3, 20, 10, 0, -1}}),
            (std::vector<int64_t>{0, 0, 0}));
}

TEST(SliceLayoutTest, TallerStacksArePlacedFirst) {
  // A wide one-level slice over a deep three-level stack: the stack keeps the top rows.
  EXPECT_EQ(Depths({{1, 0, 100, 0, -1}, {2, 10, 10, 0, -1}, {3, 10, 8, 1, 2}, {4, 11, 2, 2, 3}}),
            (std::vector<int64_t>{3, 0, 1, 2}));
}

TEST(SliceLayoutTest, AShallowStackFillsAGapAboveADeeperOne) {
  // Two tall stacks placed first ([0,10) at 0..1, [5,30) below at 2..3); a one-level slice
  // over [20,25) overlaps only the second, so the rows above it are free.
  EXPECT_EQ(Depths({{1, 0, 10, 0, -1}, {2, 0, 5, 1, 1}, {3, 5, 25, 0, -1}, {4, 5, 5, 1, 3},
                    {5, 20, 5, 0, -1}}),
            (std::vector<int64_t>{0, 1, 2, 3, 0}));
}

TEST(SliceLayoutTest, InstantsTakeRoomAndUnfinishedSlicesRunForever) {
  // An instant at 5 inside [0,10); a slice that never ended (dur -1) from 100 blocks a later one.
  EXPECT_EQ(Depths({{1, 0, 10, 0, -1}, {2, 5, 0, 0, -1}, {3, 100, -1, 0, -1}, {4, 5000, 1, 0, -1}}),
            (std::vector<int64_t>{0, 1, 0, 1}));
}

TEST(SliceLayoutTableTest, LaysOutTheSlicesOfTheGivenTracks) {
  auto storage = testing::MakeSmallTrace();
  auto db = testing::OpenOrDie(storage.get());
  ASSERT_TRUE(db);
  // Track 0 holds doFrame (0) with measure (1) and layout (2); track 1 DrawFrame (3) right after.
  EXPECT_EQ(Rows(*db, "SELECT id, layout_depth FROM experimental_slice_layout('0,1')"),
            (Table{{"0", "0"}, {"1", "1"}, {"2", "1"}, {"3", "0"}}));
  // Track 2's instant at 160 falls inside DrawFrame: one row down.
  EXPECT_EQ(Rows(*db, "SELECT id, layout_depth FROM experimental_slice_layout("
                      "(SELECT group_concat(id, ',') FROM track WHERE id IN (1, 2)))"),
            (Table{{"3", "0"}, {"4", "1"}}));
}

TEST(SliceLayoutTableTest, ABadArgumentIsAnError) {
  auto storage = testing::MakeSmallTrace();
  auto db = testing::OpenOrDie(storage.get());
  ASSERT_TRUE(db);
  auto r = db->Execute("SELECT * FROM experimental_slice_layout('0,x')");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("'x' in filter_track_ids"));
  r = db->Execute("SELECT * FROM experimental_slice_layout");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("expects filter_track_ids"));
}

}  // namespace
}  // namespace tw
