#include "libs/trace/query/interval_intersect_sweep.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

// Intervals that met in every table so far: a span and, per table, the id that took part.
struct Meetings {
  size_t width = 0;  // ids per meeting
  std::vector<int64_t> ts, end, ids;
  size_t size() const { return ts.size(); }
};

// Whether an interval [ts, end) that started at or before `at` still meets something starting
// at `at`: it contains `at`, or it is the point `at` itself.
inline bool MeetsAt(int64_t ts, int64_t end, int64_t at) {
  return at < end || (ts == end && at == ts);
}

// Every meeting of `left` (earlier tables) with `right` (the next table's intervals), one sweep
// over both in start order. Each side keeps the intervals that started and may still meet a
// later start; an interval starting now meets exactly those of the other side still active.
// Ties in start time are fine: whichever of a pair comes second finds the first active.
Meetings Sweep(const Meetings& left, const std::vector<IntervalSet::Interval>& right) {
  Meetings out;
  out.width = left.width + 1;
  std::vector<uint32_t> l_order(left.size()), r_order(right.size());
  std::iota(l_order.begin(), l_order.end(), 0);
  std::iota(r_order.begin(), r_order.end(), 0);
  std::sort(l_order.begin(), l_order.end(),
            [&](uint32_t a, uint32_t b) { return left.ts[a] < left.ts[b]; });
  std::sort(r_order.begin(), r_order.end(),
            [&](uint32_t a, uint32_t b) { return right[a].ts < right[b].ts; });

  auto emit = [&](uint32_t l, uint32_t r) {
    const int64_t start = std::max(left.ts[l], right[r].ts);
    out.ts.push_back(start);
    out.end.push_back(std::min(left.end[l], right[r].end));
    const int64_t* ids = &left.ids[static_cast<size_t>(l) * left.width];
    out.ids.insert(out.ids.end(), ids, ids + left.width);
    out.ids.push_back(right[r].id);
  };
  // Drops from `active` what no longer meets `at`; calls `pair` with each that does.
  auto scan = [](std::vector<uint32_t>& active, int64_t at, auto&& still, auto&& pair) {
    size_t kept = 0;
    for (uint32_t x : active) {
      if (!still(x, at)) continue;
      pair(x);
      active[kept++] = x;
    }
    active.resize(kept);
  };

  std::vector<uint32_t> l_active, r_active;
  size_t i = 0, j = 0;
  while (i < l_order.size() || j < r_order.size()) {
    const bool take_left =
        j == r_order.size() || (i < l_order.size() && left.ts[l_order[i]] <= right[r_order[j]].ts);
    if (take_left) {
      if (j == r_order.size() && r_active.empty()) break;  // nothing left to meet
      const uint32_t l = l_order[i++];
      scan(
          r_active, left.ts[l],
          [&](uint32_t r, int64_t at) { return MeetsAt(right[r].ts, right[r].end, at); },
          [&](uint32_t r) { emit(l, r); });
      l_active.push_back(l);
    } else {
      if (i == l_order.size() && l_active.empty()) break;
      const uint32_t r = r_order[j++];
      scan(
          l_active, right[r].ts,
          [&](uint32_t l, int64_t at) { return MeetsAt(left.ts[l], left.end[l], at); },
          [&](uint32_t l) { emit(l, r); });
      r_active.push_back(r);
    }
  }
  return out;
}

void AppendValueKey(const SqlValue& v, std::string* key) {
  key->push_back(static_cast<char>(v.type));
  switch (v.type) {
    case SqlValue::Type::kNull: break;
    case SqlValue::Type::kInt: key->append(reinterpret_cast<const char*>(&v.int_value), 8); break;
    case SqlValue::Type::kDouble:
      key->append(reinterpret_cast<const char*>(&v.double_value), 8);
      break;
    case SqlValue::Type::kString: {
      const uint64_t n = v.string_value.size();
      key->append(reinterpret_cast<const char*>(&n), 8);
      key->append(v.string_value);
      break;
    }
  }
}

}  // namespace

std::string IntervalSet::PartitionKey(const std::vector<SqlValue>& values) {
  std::string key;
  for (const SqlValue& v : values) AppendValueKey(v, &key);
  return key;
}

absl::Status IntervalSet::Add(int64_t id, int64_t ts, int64_t dur,
                              std::vector<SqlValue> partition) {
  if (ts < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("interval intersect: ts must not be negative (id ", id, ", ts ", ts, ")"));
  }
  if (dur < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "interval intersect: dur must not be negative (id ", id, ", dur ", dur, ")"));
  }
  if (partition_count_ < 0) partition_count_ = static_cast<int>(partition.size());
  if (static_cast<int>(partition.size()) != partition_count_) {
    return absl::InvalidArgumentError("interval intersect: partition column count changed");
  }
  auto [it, inserted] = partitions_.try_emplace(PartitionKey(partition));
  if (inserted) it->second.values = std::move(partition);
  it->second.intervals.push_back({ts, ts + dur, id});
  ++size_;
  return absl::OkStatus();
}

absl::StatusOr<IntersectionRows> IntersectIntervalSets(
    const std::vector<const IntervalSet*>& sets) {
  if (sets.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("interval intersect needs at least two tables, got ", sets.size()));
  }
  int partition_count = -1;
  for (const IntervalSet* s : sets) {
    if (s->partition_count() < 0) continue;  // empty: any count
    if (partition_count >= 0 && s->partition_count() != partition_count) {
      return absl::InvalidArgumentError(
          "interval intersect: the tables have different partition columns");
    }
    partition_count = s->partition_count();
  }

  IntersectionRows rows;
  rows.tables = sets.size();
  // Partitions in key order, so the result does not depend on hashing.
  std::vector<const std::string*> keys;
  for (const auto& [key, unused] : sets[0]->partitions()) keys.push_back(&key);
  std::sort(keys.begin(), keys.end(),
            [](const std::string* a, const std::string* b) { return *a < *b; });
  for (const std::string* key : keys) {
    const IntervalSet::Partition& first = sets[0]->partitions().at(*key);
    Meetings meetings;
    meetings.width = 1;
    for (const IntervalSet::Interval& iv : first.intervals) {
      meetings.ts.push_back(iv.ts);
      meetings.end.push_back(iv.end);
      meetings.ids.push_back(iv.id);
    }
    for (size_t t = 1; t < sets.size() && meetings.size() > 0; ++t) {
      auto it = sets[t]->partitions().find(*key);
      if (it == sets[t]->partitions().end()) {
        meetings = Meetings{};
        break;
      }
      meetings = Sweep(meetings, it->second.intervals);
    }
    // Rows by ts, then ids.
    const size_t w = sets.size();
    std::vector<uint32_t> order(meetings.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (meetings.ts[a] != meetings.ts[b]) return meetings.ts[a] < meetings.ts[b];
      return std::lexicographical_compare(&meetings.ids[a * w], &meetings.ids[a * w] + w,
                                          &meetings.ids[b * w], &meetings.ids[b * w] + w);
    });
    if (order.empty()) continue;
    rows.partitions.push_back(first.values);
    const uint32_t partition = static_cast<uint32_t>(rows.partitions.size() - 1);
    for (uint32_t m : order) {
      rows.ts.push_back(meetings.ts[m]);
      rows.dur.push_back(meetings.end[m] - meetings.ts[m]);
      rows.ids.insert(rows.ids.end(), &meetings.ids[m * w], &meetings.ids[m * w] + w);
      rows.partition_of.push_back(partition);
    }
  }
  return rows;
}

}  // namespace tw
