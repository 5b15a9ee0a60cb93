// PerThreadIntervals: the intervals overlapping a window, per thread, checked against a plain
// scan of every interval on random data (nested and overlapping intervals included).

#include "libs/trace/query/per_thread_intervals.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace tw {
namespace {

using Hits = std::vector<std::pair<uint32_t, int64_t>>;  // (row, overlap)

Hits Collect(const PerThreadIntervals& intervals, uint32_t utid, int64_t ts, int64_t end) {
  Hits hits;
  intervals.ForEachOverlap(utid, ts, end, [&](uint32_t row, int64_t overlap) {
    hits.emplace_back(row, overlap);
  });
  return hits;
}

TEST(PerThreadIntervals, TilingStatesClippedToTheWindow) {
  PerThreadIntervals intervals;
  intervals.Add(1, 0, 100, 0);
  intervals.Add(1, 100, 250, 1);
  intervals.Add(2, 0, 1000, 2);  // another thread's
  intervals.Add(1, 250, 400, 3);
  intervals.Finish();
  EXPECT_EQ(Collect(intervals, 1, 50, 300), (Hits{{0, 50}, {1, 150}, {3, 50}}));
  EXPECT_EQ(Collect(intervals, 1, 100, 250), (Hits{{1, 150}}));  // ends touch: no overlap
  EXPECT_TRUE(Collect(intervals, 1, 400, 500).empty());
  EXPECT_TRUE(Collect(intervals, 0, 0, 1000).empty());  // a thread with none
  EXPECT_TRUE(Collect(intervals, 7, 0, 1000).empty());  // past the last thread
}

TEST(PerThreadIntervals, LongIntervalStillFoundPastShortOnes) {
  PerThreadIntervals intervals;
  intervals.Add(3, 0, 1000, 10);   // covers everything after it
  intervals.Add(3, 10, 20, 11);
  intervals.Add(3, 30, 40, 12);
  intervals.Finish();
  EXPECT_EQ(Collect(intervals, 3, 500, 600), (Hits{{10, 100}}));
  EXPECT_EQ(Collect(intervals, 3, 15, 35), (Hits{{10, 20}, {11, 5}, {12, 5}}));
}

TEST(PerThreadIntervals, MatchesAScanOnRandomIntervals) {
  uint64_t x = 99;
  auto next = [&](uint64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((x >> 33) % n);
  };
  struct Iv {
    uint32_t utid;
    int64_t ts, end;
    uint32_t row;
  };
  std::vector<Iv> all;
  PerThreadIntervals intervals;
  for (uint32_t row = 0; row < 4000; ++row) {
    const uint32_t utid = static_cast<uint32_t>(next(6));
    const int64_t ts = next(10'000);
    const int64_t end = ts + (next(10) == 0 ? next(5'000) : next(100));
    all.push_back({utid, ts, end, row});
    intervals.Add(utid, ts, end, row);
  }
  intervals.Finish();
  for (int q = 0; q < 2000; ++q) {
    const uint32_t utid = static_cast<uint32_t>(next(7));
    const int64_t ts = next(11'000);
    const int64_t end = ts + 1 + next(800);
    Hits expected;
    for (const Iv& iv : all) {
      if (iv.utid == utid && iv.ts < end && iv.end > ts) {
        expected.emplace_back(iv.row, std::min(iv.end, end) - std::max(iv.ts, ts));
      }
    }
    Hits got = Collect(intervals, utid, ts, end);
    std::sort(expected.begin(), expected.end());
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, expected) << "thread " << utid << " [" << ts << ", " << end << ")";
  }
}

}  // namespace
}  // namespace tw
