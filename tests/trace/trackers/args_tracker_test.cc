#include "libs/trace/trackers/args_tracker.h"

#include <gtest/gtest.h>

namespace tw {
namespace {

class ArgsTrackerTest : public testing::Test {
 protected:
  TraceStorage storage;
  ArgsTracker args{&storage};
};

// trace_processor numbers an arg set by the id of its first `args` row, so ids skip by the size
// of the sets before them.
TEST_F(ArgsTrackerTest, ASetsIdIsTheIdOfItsFirstRow) {
  const auto first = args.AddArgSet({args.MakeArg("cpu", ArgValue::Int(0)),
                                     args.MakeArg("name", ArgValue::String(storage.Intern("a"))),
                                     args.MakeArg("ratio", ArgValue::Real(0.5))});
  const auto second = args.AddArgSet({args.MakeArg("cpu", ArgValue::Int(1))});
  const auto third = args.AddArgSet({args.MakeArg("cpu", ArgValue::Int(2)),
                                     args.MakeArg("flag", ArgValue::Bool(true))});
  ASSERT_TRUE(first && second && third);
  EXPECT_EQ(*first, 0u);
  EXPECT_EQ(*second, 3u);
  EXPECT_EQ(*third, 4u);
  ASSERT_EQ(storage.args.row_count(), 6u);
  for (uint32_t row = 0; row < 3; ++row) EXPECT_EQ(storage.args.arg_set_id[row], 0u);
  EXPECT_EQ(storage.args.arg_set_id[3], 3u);
  EXPECT_EQ(storage.args.arg_set_id[4], 4u);
  EXPECT_EQ(storage.args.arg_set_id[5], 4u);
}

TEST_F(ArgsTrackerTest, IdenticalSetsAreStoredOnceAndPrefixesAreNotConfused) {
  const std::vector<Arg> pair = {args.MakeArg("cpu", ArgValue::Int(0)),
                                 args.MakeArg("freq", ArgValue::Uint(300))};
  const auto a = args.AddArgSet(pair);
  // A set equal to the first row of `pair` only: a new set, not a prefix of the old one.
  const auto prefix = args.AddArgSet({pair[0]});
  const auto again = args.AddArgSet(pair);
  ASSERT_TRUE(a && prefix && again);
  EXPECT_EQ(*again, *a);
  EXPECT_NE(*prefix, *a);
  EXPECT_EQ(*prefix, 2u);
  EXPECT_EQ(storage.args.row_count(), 3u);
  EXPECT_FALSE(args.AddArgSet({}).has_value());
}

TEST_F(ArgsTrackerTest, GetArgSetReturnsTheSetByItsIdAndNothingForOtherRows) {
  const std::vector<Arg> one = {args.MakeArg("x", ArgValue::Int(1))};
  const std::vector<Arg> two = {args.MakeArg("y", ArgValue::Int(2)),
                                args.MakeArg("s", ArgValue::String(storage.Intern("v")))};
  args.AddArgSet(one);
  const uint32_t id = *args.AddArgSet(two);
  const std::vector<Arg> got = args.GetArgSet(id);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].key, two[0].key);
  EXPECT_EQ(got[0].value.int_value, 2);
  EXPECT_EQ(got[1].value.type, ArgValue::Type::kString);
  EXPECT_EQ(got[1].value.string_value, storage.Intern("v"));
  // Row 2 is the second row of set 1, not a set of its own; 99 is past the table.
  EXPECT_TRUE(args.GetArgSet(2).empty());
  EXPECT_TRUE(args.GetArgSet(99).empty());
}

}  // namespace
}  // namespace tw
