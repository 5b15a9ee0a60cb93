#include "libs/trace/trackers/slice_tracker.h"

#include <gtest/gtest.h>

namespace tw {
namespace {

class SliceTrackerTest : public testing::Test {
 protected:
  StringId S(std::string_view s) { return storage.Intern(s); }
  TraceStorage storage;
  ArgsTracker args{&storage};
  SliceTracker slices{&storage, &args};
};

TEST_F(SliceTrackerTest, NestsBeginEndAndCompleteSlices) {
  slices.Begin(10, 0, kNullStringId, S("outer"), {});
  slices.Scoped(12, 0, kNullStringId, S("child"), 3, {});
  slices.Scoped(20, 0, kNullStringId, S("sibling"), 2, {});  // child ended at 15
  slices.End(30, 0, kNullStringId, kNullStringId, {});
  const SliceTable& t = storage.slice;
  ASSERT_EQ(t.row_count(), 3u);
  EXPECT_EQ(t.dur[0], 20);
  EXPECT_EQ(t.depth[1], 1u);
  EXPECT_EQ(t.parent_id[1], 0u);
  EXPECT_EQ(t.depth[2], 1u);
  EXPECT_EQ(t.parent_id[2], 0u);
}

TEST_F(SliceTrackerTest, UnfinishedSlicesKeepMinusOne) {
  slices.Begin(10, 3, kNullStringId, S("open"), {});
  EXPECT_EQ(storage.slice.dur[0], -1);
}

TEST_F(SliceTrackerTest, EndWithoutBeginIsDroppedQuietly) {
  // Its begin predates the trace: trace_processor neither stores nor counts it.
  slices.End(10, 1, kNullStringId, kNullStringId, {});
  EXPECT_EQ(storage.GetStat("stackless_slice_end"), 0);
  EXPECT_EQ(storage.slice.row_count(), 0u);
}

TEST_F(SliceTrackerTest, EndArgsMergeIntoTheBeginArgs) {
  slices.Begin(1, 0, kNullStringId, S("s"), {args.MakeArg("a", ArgValue::Int(1))});
  slices.End(2, 0, kNullStringId, kNullStringId, {args.MakeArg("b", ArgValue::Int(2))});
  const auto merged = args.GetArgSet(storage.slice.arg_set_id[0]);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(storage.Str(merged[1].key), "b");
}

TEST_F(SliceTrackerTest, EndOfAnOuterSliceTruncatesTheOpenSlicesAboveIt) {
  // An end that names a category closes the matching slice below the top; the slice still
  // open above it is cut to that end once time moves past it (trace_processor's rule).
  slices.Begin(20, 0, S("cat"), S("outer"), {});
  slices.Begin(21, 0, kNullStringId, S("inner"), {});
  slices.End(28, 0, S("cat"), kNullStringId, {});
  EXPECT_EQ(storage.slice.dur[0], 8);
  EXPECT_EQ(storage.slice.dur[1], -1);
  slices.End(29, 0, kNullStringId, kNullStringId, {});  // nothing left to end
  EXPECT_EQ(storage.slice.dur[1], 7);
  EXPECT_EQ(storage.GetStat("misplaced_end_event"), 1);
}

TEST_F(SliceTrackerTest, InstantsAtOneTimestampStackButSlicesEndingThereDoNot) {
  slices.Scoped(10, 0, kNullStringId, S("i1"), 0, {});
  slices.Scoped(10, 0, kNullStringId, S("i2"), 0, {});
  slices.Scoped(10, 0, kNullStringId, S("x"), 5, {});  // a slice after instants pops them
  slices.Scoped(15, 0, kNullStringId, S("i3"), 0, {});  // x ended at 15: i3 is not inside
  const SliceTable& t = storage.slice;
  EXPECT_EQ(t.depth[1], 1u);
  EXPECT_EQ(t.depth[2], 0u);
  EXPECT_EQ(t.depth[3], 0u);
}

TEST_F(SliceTrackerTest, IdenticalArgSetsAreShared) {
  const auto a = args.AddArgSet({args.MakeArg("k", ArgValue::String(S("v")))});
  const auto b = args.AddArgSet({args.MakeArg("k", ArgValue::String(S("v")))});
  const auto c = args.AddArgSet({args.MakeArg("k", ArgValue::String(S("w")))});
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
}

}  // namespace
}  // namespace tw
