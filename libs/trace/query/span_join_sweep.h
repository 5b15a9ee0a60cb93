#pragma once
// The time sweep behind SPAN_JOIN / SPAN_LEFT_JOIN / SPAN_OUTER_JOIN (span_join_table.h is the
// SQLite face): given the spans of two tables, each sorted by (partition, ts), it yields the
// intersections of their spans, partition by partition and in time order within a partition,
// one at a time (a cursor never holds the whole result).
//
// Semantics (trace_processor's documented span join):
// - A span is [ts, ts + dur). A zero-duration span is an instant at ts: it meets a span that
//   contains ts (start included, end excluded) and an instant at the same ts.
// - Inner join: one output per overlapping (left span, right span) pair.
// - Left join: also every part of a left span no right span covers, with the right side NULL
//   (the right table's "shadow", its gaps); outer join: the same for both sides. Two gaps never
//   make an output.
// - Partitions: when both tables are partitioned (on the same column), an inner join visits the
//   partitions both have, a left join the left table's, an outer join either's. When only one
//   is, the other table's spans apply to every partition of the partitioned one — so when the
//   partitioned table is empty nothing is emitted, whatever the join. Unpartitioned: one
//   partition.
// - Spans of one table must not overlap within a partition (not checked: the result is then
//   meaningless, as in trace_processor). A negative duration is treated as an instant for
//   matching, its output duration is min(ends) - max(starts).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

enum class SpanJoinType { kInner, kLeft, kOuter };

// One input span; `row` indexes the caller's stored columns for it.
struct InputSpan {
  int64_t partition = 0;  // ignored for an unpartitioned table
  int64_t ts = 0;
  int64_t dur = 0;
  uint32_t row = 0;
};

struct SpanJoinInput {
  bool partitioned = false;
  std::vector<InputSpan> spans;  // sorted by (partition, ts) — SortSpans does it
};

// Sorts by (partition, ts), keeping equal keys in input order.
void SortSpans(std::vector<InputSpan>& spans);

// One output span: which rows of each side it joins (kNoRow: that side is in a gap).
struct JoinedSpan {
  static constexpr int64_t kNoRow = -1;
  int64_t ts = 0;
  int64_t dur = 0;
  int64_t partition = 0;  // meaningful when either side is partitioned
  int64_t left_row = kNoRow;
  int64_t right_row = kNoRow;
};

class SpanJoinSweep {
 public:
  // The inputs must outlive the sweep.
  SpanJoinSweep(const SpanJoinInput* left, const SpanJoinInput* right, SpanJoinType type);

  // The next output span, or false at the end.
  bool Next(JoinedSpan* out);

 private:
  // A piece of one side's timeline in the current partition: a real span (row >= 0) or a gap.
  struct Segment {
    int64_t start = 0;
    int64_t end = 0;
    int64_t row = JoinedSpan::kNoRow;
    bool instant = false;  // zero (or negative) duration: a point at `start`
  };
  // Walks one side's spans of one partition, with the gaps between them when asked.
  class SideWalker {
   public:
    void Reset(const std::vector<InputSpan>* spans, size_t begin, size_t end, bool with_gaps);
    bool done() const { return done_; }
    const Segment& current() const { return current_; }
    void Advance();

   private:
    const std::vector<InputSpan>* spans_ = nullptr;
    size_t next_ = 0, end_ = 0;
    bool with_gaps_ = false;
    bool done_ = true;
    int64_t covered_until_;  // the furthest end seen so far: where the next gap starts
    bool started_ = false;
    Segment current_;
  };

  bool StartNextPartition();
  // [begin, end) of `input`'s spans in `partition` (all of them when it is unpartitioned).
  static void RangeOf(const SpanJoinInput& input, int64_t partition, size_t* begin, size_t* end);

  const SpanJoinInput* left_;
  const SpanJoinInput* right_;
  SpanJoinType type_;
  std::vector<int64_t> partitions_;  // the partitions to visit, ascending
  size_t next_partition_ = 0;
  int64_t partition_ = 0;
  bool in_partition_ = false;
  SideWalker left_walk_, right_walk_;
};

}  // namespace tw
