#include "libs/trace/trackers/args_tracker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

namespace tw {
namespace {

class ArgsTrackerTest : public testing::Test {
 protected:
  StringId S(std::string_view s) { return storage.Intern(s); }
  Arg IntArg(std::string_view key, int64_t v) { return args.MakeArg(key, ArgValue::Int(v)); }
  TraceStorage storage;
  ArgsTracker args{&storage};
};

TEST_F(ArgsTrackerTest, EmptySetHasNoId) {
  EXPECT_FALSE(args.AddArgSet({}).has_value());
  EXPECT_EQ(storage.args.row_count(), 0u);
}

TEST_F(ArgsTrackerTest, IdenticalSetsShareOneIdAndRows) {
  const Arg set[] = {IntArg("pid", 7), args.MakeArg("comm", ArgValue::String(S("init")))};
  const auto a = args.AddArgSet(set);
  const auto b = args.AddArgSet(set);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a, b);
  EXPECT_EQ(args.set_count(), 1u);
  EXPECT_EQ(storage.args.row_count(), 2u);
}

TEST_F(ArgsTrackerTest, SetsDifferingInAnyPartGetTheirOwnIds) {
  const Arg base[] = {IntArg("a", 1), IntArg("b", 2)};
  const Arg other_value[] = {IntArg("a", 1), IntArg("b", 3)};
  const Arg other_key[] = {IntArg("a", 1), IntArg("c", 2)};
  const Arg other_order[] = {IntArg("b", 2), IntArg("a", 1)};
  const Arg prefix[] = {IntArg("a", 1)};
  const Arg other_type[] = {IntArg("a", 1), args.MakeArg("b", ArgValue::Uint(2))};
  const Arg flat_key[] = {IntArg("a", 1), args.MakeArg("b.x", "b", ArgValue::Int(2))};
  const absl::Span<const Arg> sets[] = {base, other_value, other_key, other_order,
                                        prefix, other_type, flat_key};
  // A set's id is its first row: each new set starts where the previous one ended.
  uint32_t next_row = 0;
  for (const auto& set : sets) {
    EXPECT_EQ(args.AddArgSet(set), next_row);
    next_row += static_cast<uint32_t>(set.size());
  }
  // Each again: found, not added.
  next_row = 0;
  for (const auto& set : sets) {
    EXPECT_EQ(args.AddArgSet(set), next_row);
    next_row += static_cast<uint32_t>(set.size());
  }
  EXPECT_EQ(args.set_count(), 7u);
}

TEST_F(ArgsTrackerTest, RowsOfASetAreContiguousAndRoundTrip) {
  args.AddArgSet({IntArg("x", 1)});
  const Arg set[] = {IntArg("pid", -5), args.MakeArg("name", ArgValue::String(S("surface"))),
                     args.MakeArg("load", ArgValue::Real(0.25)),
                     args.MakeArg("on", ArgValue::Bool(true))};
  const auto id = args.AddArgSet(set);
  ASSERT_EQ(id, 1u);
  const ArgTable& t = storage.args;
  ASSERT_EQ(t.row_count(), 5u);
  for (uint32_t row = 1; row < 5; ++row) EXPECT_EQ(t.arg_set_id[row], 1u);
  EXPECT_EQ(t.int_value[1], -5);
  EXPECT_TRUE(t.int_value.IsNull(2));
  EXPECT_EQ(t.string_value[2], S("surface"));
  EXPECT_EQ(t.real_value[3], 0.25);
  EXPECT_EQ(storage.Str(t.value_type[4]), "bool");
  const std::vector<Arg> back = args.GetArgSet(*id);
  ASSERT_EQ(back.size(), 4u);
  EXPECT_EQ(back[1].value.type, ArgValue::Type::kString);
  EXPECT_EQ(back[2].value.real_value, 0.25);
  EXPECT_EQ(args.AddArgSet(back), id);
}

TEST_F(ArgsTrackerTest, RealValuesCompareAsNumbers) {
  // 0.0 and -0.0 are one value; a NaN matches the same NaN.
  const auto zero = args.AddArgSet({args.MakeArg("v", ArgValue::Real(0.0))});
  EXPECT_EQ(args.AddArgSet({args.MakeArg("v", ArgValue::Real(-0.0))}), zero);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto n = args.AddArgSet({args.MakeArg("v", ArgValue::Real(nan))});
  EXPECT_NE(n, zero);
  EXPECT_EQ(args.AddArgSet({args.MakeArg("v", ArgValue::Real(nan))}), n);
}

// A prepared set (hashed early, stored later) is the same set AddArgSet finds or adds, and
// other sets added in between do not disturb it.
TEST_F(ArgsTrackerTest, PreparedSetsAreFoundAndAddedLikeAnyOther) {
  const Arg a[] = {IntArg("prev_pid", 1), IntArg("next_pid", 2)};
  const Arg b[] = {IntArg("prev_pid", 2), IntArg("next_pid", 1)};
  const auto a_id = args.AddArgSet(a);
  const ArgsTracker::SetHash a_hash = args.PrepareArgSet(a);
  const ArgsTracker::SetHash b_hash = args.PrepareArgSet(b);
  const auto c_id = args.AddArgSet({IntArg("cpu", 3)});  // added between prepare and add
  EXPECT_EQ(args.AddPreparedArgSet(a, a_hash), a_id);
  const auto b_id = args.AddPreparedArgSet(b, b_hash);
  ASSERT_TRUE(b_id.has_value());
  EXPECT_EQ(*b_id, *c_id + 1);  // new: its rows follow the set added before it
  EXPECT_EQ(args.AddArgSet(b), b_id);
  EXPECT_EQ(args.set_count(), 3u);
  EXPECT_FALSE(args.AddPreparedArgSet({}, args.PrepareArgSet({})).has_value());
}

TEST_F(ArgsTrackerTest, ManySetsKeepTheirIdentity) {
  // Enough sets that hash-index growth and any shared hashes are exercised.
  constexpr int kSets = 50000;
  for (int i = 0; i < kSets; ++i) {
    const Arg set[] = {IntArg("prev_pid", i % 977), IntArg("next_pid", i)};
    ASSERT_EQ(args.AddArgSet(set), static_cast<uint32_t>(2 * i));
  }
  for (int i = kSets - 1; i >= 0; i -= 7) {
    const Arg set[] = {IntArg("prev_pid", i % 977), IntArg("next_pid", i)};
    ASSERT_EQ(args.AddArgSet(set), static_cast<uint32_t>(2 * i));
  }
  EXPECT_EQ(args.set_count(), static_cast<uint32_t>(kSets));
  EXPECT_EQ(storage.args.row_count(), 2u * kSets);
}

// With the index hash cut to a few bits, distinct sets share index hashes (and the index's
// shard and buckets) all the time: the check hash still tells them apart, prefix sets included.
TEST_F(ArgsTrackerTest, SetsSharingAnIndexHashKeepTheirIdentity) {
  for (int bits : {0, 3}) {
    TraceStorage s;
    ArgsTracker narrow(&s, bits);
    std::vector<std::vector<Arg>> sets;
    for (int i = 0; i < 300; ++i) {
      std::vector<Arg> set = {narrow.MakeArg("pid", ArgValue::Int(i % 17))};
      if (i % 3 != 0) set.push_back(narrow.MakeArg("prio", ArgValue::Int(i % 5)));
      if (i % 4 == 0) set.push_back(narrow.MakeArg("comm", ArgValue::String(s.Intern("t"))));
      sets.push_back(set);
    }
    std::vector<std::optional<uint32_t>> ids;
    for (const auto& set : sets) ids.push_back(narrow.AddArgSet(set));
    uint32_t distinct = 0;
    for (size_t i = 0; i < sets.size(); ++i) {
      // The same id again, the same id as every identical earlier set, and the same rows back.
      ASSERT_EQ(narrow.AddArgSet(sets[i]), ids[i]) << "bits " << bits << " set " << i;
      bool seen = false;
      for (size_t j = 0; j < i; ++j) {
        const bool same = sets[j].size() == sets[i].size() &&
                          std::equal(sets[j].begin(), sets[j].end(), sets[i].begin(),
                                     [](const Arg& a, const Arg& b) {
                                       return a.key == b.key &&
                                              a.value.int_value == b.value.int_value &&
                                              a.value.string_value == b.value.string_value;
                                     });
        ASSERT_EQ(same, ids[j] == ids[i]) << "bits " << bits << " sets " << j << ", " << i;
        seen |= same;
      }
      distinct += seen ? 0 : 1;
      ASSERT_EQ(narrow.GetArgSet(*ids[i]).size(), sets[i].size());
    }
    EXPECT_EQ(narrow.set_count(), distinct);
  }
}

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
