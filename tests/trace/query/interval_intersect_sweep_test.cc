// The interval intersection sweep (interval_intersect_sweep.h) on its own: partitions, NULL
// partition values, points, touching intervals, overlaps within a table, several tables, and
// random sets checked against the pairwise definition.

#include "libs/trace/query/interval_intersect_sweep.h"

#include <algorithm>
#include <random>
#include <tuple>

#include "gtest/gtest.h"

namespace tw {
namespace {

// (ts, dur, ids...) rows, for comparisons.
using Row = std::vector<int64_t>;

std::vector<Row> Flatten(const IntersectionRows& r) {
  std::vector<Row> out;
  for (size_t i = 0; i < r.size(); ++i) {
    Row row = {r.ts[i], r.dur[i]};
    row.insert(row.end(), r.ids.begin() + i * r.tables, r.ids.begin() + (i + 1) * r.tables);
    out.push_back(row);
  }
  return out;
}

std::vector<Row> Intersect(const std::vector<const IntervalSet*>& sets) {
  auto r = IntersectIntervalSets(sets);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? Flatten(*r) : std::vector<Row>{};
}

IntervalSet Set(std::initializer_list<std::tuple<int64_t, int64_t, int64_t>> intervals) {
  IntervalSet s;
  for (auto [id, ts, dur] : intervals) EXPECT_TRUE(s.Add(id, ts, dur, {}).ok());
  return s;
}

TEST(IntervalIntersectSweep, OverlapsAreClippedTouchingIntervalsDoNotMeet) {
  const IntervalSet a = Set({{1, 0, 10}, {2, 20, 10}});
  const IntervalSet b = Set({{7, 5, 20}, {8, 10, 10}, {9, 30, 5}});
  // 8 = [10, 20) touches 1 at 10 and 2 at 20; 9 starts where 2 ends.
  EXPECT_EQ(Intersect({&a, &b}), (std::vector<Row>{{5, 5, 1, 7}, {20, 5, 2, 7}}));
}

TEST(IntervalIntersectSweep, PointsMeetWhatContainsThemAndEqualPoints) {
  const IntervalSet points = Set({{1, 0, 0}, {2, 10, 0}, {3, 15, 0}, {4, 30, 0}});
  const IntervalSet spans = Set({{7, 0, 10}, {8, 15, 0}, {9, 20, 10}});
  // 1 is the start of 7 (in); 2 is 7's end (out); 3 equals point 8; 4 is 9's end (out).
  EXPECT_EQ(Intersect({&points, &spans}), (std::vector<Row>{{0, 0, 1, 7}, {15, 0, 3, 8}}));
  // A point at an interval's start meets it whichever table comes first.
  EXPECT_EQ(Intersect({&spans, &points}), (std::vector<Row>{{0, 0, 7, 1}, {15, 0, 8, 3}}));
}

TEST(IntervalIntersectSweep, OverlappingIntervalsOfOneTableEachPair) {
  const IntervalSet a = Set({{1, 0, 100}, {2, 10, 100}, {3, 10, 5}});
  const IntervalSet b = Set({{5, 12, 1}});
  EXPECT_EQ(Intersect({&a, &b}),
            (std::vector<Row>{{12, 1, 1, 5}, {12, 1, 2, 5}, {12, 1, 3, 5}}));
}

TEST(IntervalIntersectSweep, ThreeTablesMustShareAPoint) {
  const IntervalSet a = Set({{1, 0, 10}});
  const IntervalSet b = Set({{2, 5, 10}});
  const IntervalSet c = Set({{3, 9, 1}, {4, 10, 3}, {5, 0, 6}});
  EXPECT_EQ(Intersect({&a, &b, &c}), (std::vector<Row>{{5, 1, 1, 2, 5}, {9, 1, 1, 2, 3}}));
}

TEST(IntervalIntersectSweep, PartitionsMatchByValueAndNullMatchesNull) {
  IntervalSet a, b;
  ASSERT_TRUE(a.Add(1, 0, 10, {SqlValue::Int(1)}).ok());
  ASSERT_TRUE(a.Add(2, 0, 10, {SqlValue::Null()}).ok());
  ASSERT_TRUE(a.Add(3, 0, 10, {SqlValue::String("1")}).ok());
  ASSERT_TRUE(b.Add(7, 5, 10, {SqlValue::Int(1)}).ok());
  ASSERT_TRUE(b.Add(8, 5, 10, {SqlValue::Null()}).ok());
  ASSERT_TRUE(b.Add(9, 5, 10, {SqlValue::Int(2)}).ok());
  auto r = IntersectIntervalSets({&a, &b});
  ASSERT_TRUE(r.ok());
  std::vector<std::pair<Row, SqlValue::Type>> got;
  for (size_t i = 0; i < r->size(); ++i) {
    got.push_back({Flatten(*r)[i], r->partitions[r->partition_of[i]][0].type});
  }
  std::sort(got.begin(), got.end());
  // The string "1" is not the integer 1; NULL meets NULL.
  EXPECT_EQ(got, (std::vector<std::pair<Row, SqlValue::Type>>{
                     {{5, 5, 1, 7}, SqlValue::Type::kInt}, {{5, 5, 2, 8}, SqlValue::Type::kNull}}));
}

TEST(IntervalIntersectSweep, BadInputIsAnError) {
  IntervalSet s;
  EXPECT_FALSE(s.Add(1, 0, -1, {}).ok());
  EXPECT_FALSE(s.Add(1, -5, 1, {}).ok());
  ASSERT_TRUE(s.Add(1, 0, 1, {SqlValue::Int(3)}).ok());
  EXPECT_FALSE(s.Add(2, 0, 1, {}).ok());  // partition count changed
  EXPECT_FALSE(IntersectIntervalSets({&s}).ok());
  const IntervalSet empty;
  EXPECT_TRUE(Intersect({&s, &empty}).empty());
}

// The definition, pair by pair: the latest start is before every non-empty interval's end and
// no later than every point.
bool Meet(const std::vector<std::tuple<int64_t, int64_t>>& spans) {
  int64_t latest = 0;
  for (auto [ts, end] : spans) latest = std::max(latest, ts);
  for (auto [ts, end] : spans) {
    if (ts == end ? latest > end : latest >= end) return false;
  }
  return true;
}

TEST(IntervalIntersectSweep, RandomSetsMatchThePairwiseDefinition) {
  std::mt19937_64 rng(17);
  for (int round = 0; round < 200; ++round) {
    const int tables = 2 + round % 2;
    std::vector<IntervalSet> sets(tables);
    std::vector<std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t>>> raw(tables);
    for (int t = 0; t < tables; ++t) {
      const int n = static_cast<int>(rng() % 12);
      for (int i = 0; i < n; ++i) {
        const int64_t ts = static_cast<int64_t>(rng() % 40);
        const int64_t dur = rng() % 4 == 0 ? 0 : static_cast<int64_t>(rng() % 15);
        const int64_t part = static_cast<int64_t>(rng() % 2);
        const int64_t id = t * 100 + i;
        ASSERT_TRUE(sets[t].Add(id, ts, dur, {SqlValue::Int(part)}).ok());
        raw[t].push_back({id, ts, ts + dur, part});
      }
    }
    std::vector<Row> expected;
    if (tables == 2) {
      for (auto [i0, s0, e0, p0] : raw[0]) {
        for (auto [i1, s1, e1, p1] : raw[1]) {
          if (p0 != p1 || !Meet({{s0, e0}, {s1, e1}})) continue;
          const int64_t ts = std::max(s0, s1);
          expected.push_back({ts, std::min(e0, e1) - ts, i0, i1});
        }
      }
    } else {
      for (auto [i0, s0, e0, p0] : raw[0]) {
        for (auto [i1, s1, e1, p1] : raw[1]) {
          for (auto [i2, s2, e2, p2] : raw[2]) {
            if (p0 != p1 || p1 != p2 || !Meet({{s0, e0}, {s1, e1}, {s2, e2}})) continue;
            const int64_t ts = std::max({s0, s1, s2});
            expected.push_back({ts, std::min({e0, e1, e2}) - ts, i0, i1, i2});
          }
        }
      }
    }
    std::vector<const IntervalSet*> ptrs;
    for (const IntervalSet& s : sets) ptrs.push_back(&s);
    std::vector<Row> got = Intersect(ptrs);
    std::sort(got.begin(), got.end());
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(got, expected) << "round " << round;
  }
}

}  // namespace
}  // namespace tw
