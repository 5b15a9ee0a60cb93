#include "libs/trace/importers/proto/clock_tracker.h"

#include <algorithm>
#include <deque>
#include <set>

namespace tw {

void ClockTracker::AddSnapshot(const std::vector<SnapshotClock>& clocks) {
  std::vector<SnapshotClock> own = clocks;
  for (SnapshotClock& c : own) c.key = Qualify(c.key);
  AddEdges(own);
}

void ClockTracker::AddRemoteSync(uint32_t clock_id, int64_t host_ts, int64_t offset_ns) {
  AddEdges({{ClockKey{clock_id, 0, 0}, host_ts}, {ClockKey{clock_id, 0, machine_}, host_ts + offset_ns}});
}

bool ClockTracker::BridgeToTraceClock(ClockKey clock) {
  if (clock.machine == trace_clock_.machine) return false;
  // REALTIME is the same absolute clock everywhere: prefer it when both sides can reach it.
  const ClockKey realtime{kRealtimeClockId, 0, clock.machine};
  const ClockKey host_realtime{kRealtimeClockId, 0, trace_clock_.machine};
  if (FindPath(clock, realtime) && FindPath(host_realtime, trace_clock_)) {
    AddEdges({{realtime, 0}, {host_realtime, 0}});
    return true;
  }
  // Else the machine's clock of the trace clock's kind (two machines' BOOTTIMEs are assumed to
  // share a boot instant), when this clock reaches it.
  const ClockKey same_kind{trace_clock_.clock_id, trace_clock_.sequence_id, clock.machine};
  if (!FindPath(clock, same_kind)) return false;
  AddEdges({{same_kind, 0}, {trace_clock_, 0}});
  return true;
}

void ClockTracker::AddEdges(const std::vector<SnapshotClock>& clocks) {
  for (size_t i = 0; i < clocks.size(); ++i) {
    for (size_t j = 0; j < clocks.size(); ++j) {
      if (i == j || clocks[i].key == clocks[j].key) continue;
      auto [it, inserted] = edges_.try_emplace({clocks[i].key, clocks[j].key});
      auto& points = it->second.points;
      const std::pair<int64_t, int64_t> p{clocks[i].timestamp_ns, clocks[j].timestamp_ns};
      points.insert(std::upper_bound(points.begin(), points.end(), p), p);
      if (inserted) neighbours_[clocks[i].key].push_back(clocks[j].key);
    }
  }
  path_cache_.clear();
  cache_.fill({});
}

std::optional<std::vector<ClockKey>> ClockTracker::FindPath(ClockKey from, ClockKey to) {
  // The cache holds paths to the trace clock, the one conversion done per event.
  const bool cacheable = to == trace_clock_;
  if (cacheable) {
    auto cached = path_cache_.find(from);
    if (cached != path_cache_.end()) return cached->second;
  }
  // Breadth-first search: the shortest chain of snapshotted pairs.
  std::map<ClockKey, ClockKey> parent;
  std::deque<ClockKey> queue = {from};
  std::set<ClockKey> seen = {from};
  while (!queue.empty()) {
    const ClockKey cur = queue.front();
    queue.pop_front();
    if (cur == to) {
      std::vector<ClockKey> path = {to};
      for (ClockKey k = to; !(k == from);) {
        k = parent[k];
        path.push_back(k);
      }
      std::reverse(path.begin(), path.end());
      if (cacheable) path_cache_[from] = path;
      return path;
    }
    auto n = neighbours_.find(cur);
    if (n == neighbours_.end()) continue;
    for (const ClockKey& next : n->second) {
      if (seen.insert(next).second) {
        parent[next] = cur;
        queue.push_back(next);
      }
    }
  }
  return std::nullopt;
}

std::optional<int64_t> ClockTracker::ToTraceTime(ClockKey clock, int64_t ts) {
  clock = Qualify(clock);
  std::optional<int64_t> t = Convert(clock, trace_clock_, ts);
  if (!t && BridgeToTraceClock(clock)) t = Convert(clock, trace_clock_, ts);
  return t;
}

std::optional<int64_t> ClockTracker::Convert(ClockKey from, ClockKey to, int64_t ts) {
  if (from == to) return ts;
  for (const CachedTranslation& c : cache_) {
    if (c.valid && c.from == from && c.to == to && ts >= c.min_ns && ts < c.max_ns) {
      return ts + c.translation_ns;
    }
  }
  ++cache_misses_;
  const auto path = FindPath(from, to);
  if (!path) return std::nullopt;
  int64_t value = ts;
  int64_t translation = 0;
  int64_t min_ns = INT64_MIN, max_ns = INT64_MAX;
  for (size_t i = 0; i + 1 < path->size(); ++i) {
    const Edge& edge = edges_[{(*path)[i], (*path)[i + 1]}];
    // Nearest snapshot at or before `value` on the source clock (else the first).
    auto it = std::upper_bound(edge.points.begin(), edge.points.end(),
                               std::make_pair(value, INT64_MAX));
    if (it != edge.points.begin()) --it;
    const int64_t hop = it->second - it->first;
    // This hop's translation holds from its snapshot to the next (unbounded before the second
    // snapshot and after the last), in the path's source clock.
    if (it != edge.points.begin()) min_ns = std::max(min_ns, it->first - translation);
    if (it + 1 != edge.points.end()) max_ns = std::min(max_ns, (it + 1)->first - translation);
    value += hop;
    translation += hop;
  }
  cache_[evict_() % cache_.size()] = CachedTranslation{true, from, to, min_ns, max_ns, translation};
  return value;
}

}  // namespace tw
