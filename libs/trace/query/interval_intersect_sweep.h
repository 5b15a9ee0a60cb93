#pragma once
// The interval intersection behind the stdlib's _interval_intersect! macros, as one sweep per
// partition instead of a SQL join (which is quadratic when there are no partitions).
//
// Each input table is a set of intervals (id, ts, dur) grouped by the values of the partition
// columns. The result has one row per combination of intervals, one from each table, that
// share their partition values and have a point in common: an interval is [ts, ts + dur); a
// zero-duration one is the point ts, which meets an interval containing it (start included,
// end excluded) and a point at the same ts. Touching intervals ([0, 5) and [5, 9)) do not
// meet. A row's ts is the latest start and dur the earliest end minus ts. Partition values
// compare as values: NULL matches NULL (as trace_processor's partitions do), an integer only
// an equal integer, a string only an equal string.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "libs/trace/query/sql_value.h"

namespace tw {

// One input table's intervals, by partition.
class IntervalSet {
 public:
  struct Interval {
    int64_t ts;
    int64_t end;  // ts + dur
    int64_t id;
  };
  struct Partition {
    std::vector<SqlValue> values;  // the partition columns' values
    std::vector<Interval> intervals;
  };

  // Adds an interval. Errors: INVALID_ARGUMENT for a negative ts or dur, or a partition with
  // another number of values than the first one added.
  absl::Status Add(int64_t id, int64_t ts, int64_t dur, std::vector<SqlValue> partition);

  size_t size() const { return size_; }
  const absl::flat_hash_map<std::string, Partition>& partitions() const { return partitions_; }
  // The number of partition columns (-1 until the first interval).
  int partition_count() const { return partition_count_; }

  // The bytes that identify a partition (its values' types and values).
  static std::string PartitionKey(const std::vector<SqlValue>& values);

 private:
  absl::flat_hash_map<std::string, Partition> partitions_;
  size_t size_ = 0;
  int partition_count_ = -1;
};

// The rows of the intersection of `sets` (at least two), ordered by partition key, then ts,
// then the ids.
struct IntersectionRows {
  size_t tables = 0;
  std::vector<int64_t> ts, dur;
  std::vector<int64_t> ids;  // row-major: `tables` ids per row
  std::vector<std::vector<SqlValue>> partitions;  // the values of each partition with rows
  std::vector<uint32_t> partition_of;             // per row: its index in `partitions`
  size_t size() const { return ts.size(); }
};

absl::StatusOr<IntersectionRows> IntersectIntervalSets(const std::vector<const IntervalSet*>& sets);

}  // namespace tw
