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

TEST_F(SliceTrackerTest, AnEndRepeatingTheBeginArgsLeavesOneSharedSetAndNoOrphans) {
  // Two slices whose end repeats (and updates) the begin's keys: each final set has every key
  // once, the two are identical so they share one set, and the begin-only sets never reach
  // the args table.
  for (int i = 0; i < 2; ++i) {
    slices.Begin(10 * i, 0, kNullStringId, S("s"),
                 {args.MakeArg("id", ArgValue::Int(7)), args.MakeArg("x", ArgValue::Int(1))});
    slices.End(10 * i + 5, 0, kNullStringId, kNullStringId,
               {args.MakeArg("x", ArgValue::Int(2)), args.MakeArg("y", ArgValue::Int(3))});
  }
  const SliceTable& t = storage.slice;
  ASSERT_EQ(t.arg_set_id[0], t.arg_set_id[1]);
  const auto set = args.GetArgSet(t.arg_set_id[0]);
  ASSERT_EQ(set.size(), 3u);
  EXPECT_EQ(storage.Str(set[1].key), "x");
  EXPECT_EQ(set[1].value.int_value, 2);
  EXPECT_EQ(storage.args.row_count(), 3u);
}

TEST_F(SliceTrackerTest, ArgsOfSlicesNeverEndedAreWrittenAtFinish) {
  slices.Begin(1, 0, kNullStringId, S("open"), {args.MakeArg("a", ArgValue::Int(1))});
  slices.AddArgs(0, {args.MakeArg("b", ArgValue::Int(2))});
  EXPECT_TRUE(storage.slice.arg_set_id.IsNull(0));
  slices.Finish();
  ASSERT_FALSE(storage.slice.arg_set_id.IsNull(0));
  EXPECT_EQ(args.GetArgSet(storage.slice.arg_set_id[0]).size(), 2u);
}

TEST_F(SliceTrackerTest, LegacyUnnestableBeginsDoNotNestAndAreCountedOnTheEndedSlice) {
  // Android's atrace 'S' repeated while its slice is open: one slice, which records how many
  // begins the track has seen and the last one's time.
  slices.BeginLegacyUnnestable(10, 4, S("wakelock"), {args.MakeArg("cookie", ArgValue::Int(1))});
  slices.BeginLegacyUnnestable(12, 4, S("wakelock"), {args.MakeArg("cookie", ArgValue::Int(1))});
  slices.End(20, 4, kNullStringId, kNullStringId, {});
  slices.BeginLegacyUnnestable(30, 4, S("wakelock"), {args.MakeArg("cookie", ArgValue::Int(1))});
  slices.End(35, 4, kNullStringId, kNullStringId, {});
  const SliceTable& t = storage.slice;
  ASSERT_EQ(t.row_count(), 2u);
  EXPECT_EQ(t.dur[0], 10);
  EXPECT_EQ(t.depth[1], 0u);
  const auto first = args.GetArgSet(t.arg_set_id[0]);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(storage.Str(first[1].key), "legacy_unnestable_begin_count");
  EXPECT_EQ(first[1].value.int_value, 2);
  EXPECT_EQ(first[2].value.int_value, 12);
  const auto second = args.GetArgSet(t.arg_set_id[1]);
  EXPECT_EQ(second[1].value.int_value, 3);  // the track's count goes on
  EXPECT_EQ(second[2].value.int_value, 30);
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

// Args added after the fact go to the innermost open slice of that name and category, found
// past complete slices and slices of other names above it; an ended slice is not open.
TEST_F(SliceTrackerTest, FindOpenSliceLooksBelowTheTopForAnOpenMatch) {
  slices.Begin(10, 0, S("binder"), S("binder reply"), {});        // row 0
  slices.Begin(11, 0, S("other"), S("binder reply"), {});         // row 1: other category
  slices.Begin(12, 0, kNullStringId, S("work"), {});              // row 2
  slices.Scoped(13, 0, S("binder"), S("instant"), 0, {});         // row 3: complete
  EXPECT_EQ(slices.FindOpenSlice(0, S("binder"), S("binder reply")), 0u);
  EXPECT_EQ(slices.FindOpenSlice(0, kNullStringId, S("binder reply")), 1u);
  EXPECT_EQ(slices.FindOpenSlice(0, S("binder"), S("missing")), std::nullopt);
  EXPECT_EQ(slices.FindOpenSlice(1, S("binder"), S("binder reply")), std::nullopt);
  // End("binder reply", category binder) closes row 0 below the top: it is no longer open.
  slices.End(14, 0, S("binder"), S("binder reply"), {});
  EXPECT_EQ(slices.FindOpenSlice(0, S("binder"), S("binder reply")), std::nullopt);
}

// Args added to a slice still open are kept with it until it ends, then written as one set:
// nothing is left in the args table without a slice.
TEST_F(SliceTrackerTest, ArgsAddedToAnOpenSliceAreWrittenOnceWhenItEnds) {
  slices.Begin(10, 0, kNullStringId, S("s"), {});
  slices.AddArgs(0, {args.MakeArg("early", ArgValue::Int(1))});
  EXPECT_TRUE(storage.slice.arg_set_id.IsNull(0));
  slices.End(20, 0, kNullStringId, kNullStringId, {args.MakeArg("late", ArgValue::Int(2))});
  const auto set = args.GetArgSet(storage.slice.arg_set_id[0]);
  ASSERT_EQ(set.size(), 2u);
  EXPECT_EQ(storage.Str(set[0].key), "early");
  EXPECT_EQ(storage.Str(set[1].key), "late");
  EXPECT_EQ(storage.args.row_count(), 2u);
  // A slice never ended gets its gathered args at Finish.
  slices.Begin(30, 1, kNullStringId, S("open"), {});
  slices.AddArgs(1, {args.MakeArg("k", ArgValue::Int(3))});
  slices.Finish();
  EXPECT_EQ(storage.Str(args.GetArgSet(storage.slice.arg_set_id[1])[0].key), "k");
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
