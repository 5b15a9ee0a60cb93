#include "libs/trace/query/per_thread_intervals.h"

#include <algorithm>
#include <utility>

namespace tw {

void PerThreadIntervals::Add(uint32_t utid, int64_t ts, int64_t end, uint32_t row) {
  intervals_.push_back({utid, row, ts, end});
}

void PerThreadIntervals::Finish() {
  // Group by thread keeping insertion order (a counting sort): a thread's rows usually come
  // in time order already, so most threads then need no sort at all.
  uint32_t threads = 0;
  for (const Interval& iv : intervals_) threads = std::max(threads, iv.utid + 1);
  offsets_.assign(threads + 1, 0);
  for (const Interval& iv : intervals_) ++offsets_[iv.utid + 1];
  for (uint32_t u = 0; u < threads; ++u) offsets_[u + 1] += offsets_[u];
  std::vector<Interval> grouped(intervals_.size());
  std::vector<uint32_t> cursor(offsets_.begin(), offsets_.end() - 1);
  for (const Interval& iv : intervals_) grouped[cursor[iv.utid]++] = iv;
  intervals_ = std::move(grouped);
  auto by_start = [](const Interval& a, const Interval& b) {
    return a.ts != b.ts ? a.ts < b.ts : a.row < b.row;
  };
  for (uint32_t u = 0; u < threads; ++u) {
    auto first = intervals_.begin() + offsets_[u];
    auto last = intervals_.begin() + offsets_[u + 1];
    if (!std::is_sorted(first, last, by_start)) std::sort(first, last, by_start);
  }
  max_end_.resize(intervals_.size());
  for (size_t i = 0; i < intervals_.size(); ++i) {
    const bool first_of_thread = i == 0 || intervals_[i - 1].utid != intervals_[i].utid;
    max_end_[i] = first_of_thread ? intervals_[i].end : std::max(max_end_[i - 1], intervals_[i].end);
  }
}

}  // namespace tw
