#pragma once
// Intervals grouped by thread, for "what did this thread do during [ts, end)" questions asked
// once per slice. Each thread's intervals are sorted by start and carry the running maximum of
// their ends, so the ones overlapping a window are two binary searches and a scan away; for
// intervals that do not overlap each other (a thread's thread_state rows, its sched rows) the
// scan visits only the overlapping ones. Overlapping intervals are still answered exactly.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

class PerThreadIntervals {
 public:
  // Adds the interval [ts, end) of thread `utid`, standing for row `row` of its source table.
  void Add(uint32_t utid, int64_t ts, int64_t end, uint32_t row);
  // Sorts what was added; call once, after the last Add and before any ForEachOverlap.
  void Finish();

  // Calls fn(row, overlap_ns) for every interval of `utid` with ts < `end` and an end > `ts`,
  // in order of start (then row), with the length of its intersection with [ts, end).
  template <typename Fn>
  void ForEachOverlap(uint32_t utid, int64_t ts, int64_t end, Fn fn) const {
    if (static_cast<std::size_t>(utid) + 1 >= offsets_.size()) return;
    uint32_t lo = offsets_[utid];
    uint32_t hi = offsets_[utid + 1];
    // Starts are sorted: the intervals starting before `end` are a prefix.
    hi = FirstIndex(lo, hi, [&](uint32_t i) { return intervals_[i].ts >= end; });
    // Running maxima of ends are sorted too: before the first above `ts`, none reaches it.
    lo = FirstIndex(lo, hi, [&](uint32_t i) { return max_end_[i] > ts; });
    for (uint32_t i = lo; i < hi; ++i) {
      const Interval& iv = intervals_[i];
      if (iv.end <= ts) continue;
      fn(iv.row, (iv.end < end ? iv.end : end) - (iv.ts > ts ? iv.ts : ts));
    }
  }

 private:
  // The first i in [lo, hi) with past(i), for a predicate false then true over the range.
  template <typename Pred>
  static uint32_t FirstIndex(uint32_t lo, uint32_t hi, Pred past) {
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (past(mid)) hi = mid; else lo = mid + 1;
    }
    return lo;
  }

  struct Interval {
    uint32_t utid;
    uint32_t row;
    int64_t ts;
    int64_t end;
  };
  std::vector<Interval> intervals_;
  std::vector<int64_t> max_end_;   // per interval: the largest end of its thread's up to it
  std::vector<uint32_t> offsets_;  // thread u's intervals are [offsets_[u], offsets_[u + 1])
};

}  // namespace tw
