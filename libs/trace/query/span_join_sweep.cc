#include "libs/trace/query/span_join_sweep.h"

#include <algorithm>
#include <limits>

namespace tw {
namespace {

constexpr int64_t kMinTs = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxTs = std::numeric_limits<int64_t>::max();

int64_t SaturatingEnd(int64_t ts, int64_t dur) {
  if (dur > 0 && ts > kMaxTs - dur) return kMaxTs;
  return ts + dur;
}

// Distinct partitions of a sorted span list, ascending.
std::vector<int64_t> PartitionsOf(const SpanJoinInput& input) {
  std::vector<int64_t> out;
  for (const InputSpan& s : input.spans) {
    if (out.empty() || out.back() != s.partition) out.push_back(s.partition);
  }
  return out;
}

}  // namespace

void SortSpans(std::vector<InputSpan>& spans) {
  auto before = [](const InputSpan& a, const InputSpan& b) {
    return a.partition != b.partition ? a.partition < b.partition : a.ts < b.ts;
  };
  // Tables are often in order already (by ts, unpartitioned): then a check is all it costs.
  if (!std::is_sorted(spans.begin(), spans.end(), before)) {
    std::stable_sort(spans.begin(), spans.end(), before);
  }
}

void SpanJoinSweep::SideWalker::Reset(const std::vector<InputSpan>* spans, size_t begin,
                                      size_t end, bool with_gaps) {
  spans_ = spans;
  next_ = begin;
  end_ = end;
  with_gaps_ = with_gaps;
  covered_until_ = kMinTs;
  done_ = false;
  Advance();
}

void SpanJoinSweep::SideWalker::Advance() {
  if (next_ < end_) {
    const InputSpan& span = (*spans_)[next_];
    if (with_gaps_ && covered_until_ < span.ts) {
      current_ = {covered_until_, span.ts, JoinedSpan::kNoRow, false};
      covered_until_ = span.ts;
      return;
    }
    const bool instant = span.dur <= 0;
    current_ = {span.ts, SaturatingEnd(span.ts, span.dur), span.row, instant};
    covered_until_ = std::max(covered_until_, instant ? span.ts : current_.end);
    ++next_;
    return;
  }
  if (with_gaps_ && covered_until_ < kMaxTs) {
    current_ = {covered_until_, kMaxTs, JoinedSpan::kNoRow, false};
    covered_until_ = kMaxTs;
    return;
  }
  done_ = true;
}

SpanJoinSweep::SpanJoinSweep(const SpanJoinInput* left, const SpanJoinInput* right,
                             SpanJoinType type)
    : left_(left), right_(right), type_(type) {
  if (left->partitioned && right->partitioned) {
    const std::vector<int64_t> l = PartitionsOf(*left), r = PartitionsOf(*right);
    switch (type) {
      case SpanJoinType::kInner:
        std::set_intersection(l.begin(), l.end(), r.begin(), r.end(),
                              std::back_inserter(partitions_));
        break;
      case SpanJoinType::kLeft:
        partitions_ = l;
        break;
      case SpanJoinType::kOuter:
        std::set_union(l.begin(), l.end(), r.begin(), r.end(), std::back_inserter(partitions_));
        break;
    }
  } else if (left->partitioned) {
    partitions_ = PartitionsOf(*left);
  } else if (right->partitioned) {
    partitions_ = PartitionsOf(*right);
  } else {
    partitions_ = {0};
  }
}

void SpanJoinSweep::RangeOf(const SpanJoinInput& input, int64_t partition, size_t* begin,
                            size_t* end) {
  if (!input.partitioned) {
    *begin = 0;
    *end = input.spans.size();
    return;
  }
  const auto lo = std::lower_bound(
      input.spans.begin(), input.spans.end(), partition,
      [](const InputSpan& s, int64_t p) { return s.partition < p; });
  const auto hi = std::upper_bound(
      lo, input.spans.end(), partition,
      [](int64_t p, const InputSpan& s) { return p < s.partition; });
  *begin = static_cast<size_t>(lo - input.spans.begin());
  *end = static_cast<size_t>(hi - input.spans.begin());
}

bool SpanJoinSweep::StartNextPartition() {
  if (next_partition_ >= partitions_.size()) return false;
  partition_ = partitions_[next_partition_++];
  size_t lb, le, rb, re;
  RangeOf(*left_, partition_, &lb, &le);
  RangeOf(*right_, partition_, &rb, &re);
  // A side's gaps matter when the other side's spans must appear without it.
  left_walk_.Reset(&left_->spans, lb, le, type_ == SpanJoinType::kOuter);
  right_walk_.Reset(&right_->spans, rb, re, type_ != SpanJoinType::kInner);
  in_partition_ = true;
  return true;
}

bool SpanJoinSweep::Next(JoinedSpan* out) {
  for (;;) {
    if (!in_partition_ && !StartNextPartition()) return false;
    while (!left_walk_.done() && !right_walk_.done()) {
      const Segment a = left_walk_.current();
      const Segment b = right_walk_.current();
      bool overlaps;
      if (a.instant && b.instant) {
        overlaps = a.start == b.start;
      } else if (a.instant) {
        overlaps = b.start <= a.start && a.start < b.end;
      } else if (b.instant) {
        overlaps = a.start <= b.start && b.start < a.end;
      } else {
        overlaps = a.start < b.end && b.start < a.end;
      }
      const bool emit = overlaps && (a.row != JoinedSpan::kNoRow || b.row != JoinedSpan::kNoRow);
      if (emit) {
        out->ts = std::max(a.start, b.start);
        out->dur = std::min(a.end, b.end) - out->ts;
        out->partition = partition_;
        out->left_row = a.row;
        out->right_row = b.row;
      }
      // Step past whichever segment finishes first. An instant at t comes after a span ending
      // at t (which does not contain t), so the span is left first and the instant still meets
      // what starts at t.
      const int64_t a_key = a.instant ? a.start : a.end;
      const int64_t b_key = b.instant ? b.start : b.end;
      const bool a_first = a_key < b_key || (a_key == b_key && !a.instant && b.instant);
      const bool b_first = b_key < a_key || (a_key == b_key && !b.instant && a.instant);
      if (!b_first) left_walk_.Advance();
      if (!a_first) right_walk_.Advance();
      if (emit) return true;
    }
    in_partition_ = false;
  }
}

}  // namespace tw
