#include "libs/trace/query/cpu_freq_per_thread_tables.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace tw {
namespace {

// CAST(value AS INT) as SQLite does it: toward zero, saturating at the int64 range.
int64_t SqlCastToInt(double value) {
  if (std::isnan(value)) return 0;
  if (value <= static_cast<double>(INT64_MIN)) return INT64_MIN;
  if (value >= static_cast<double>(INT64_MAX)) return INT64_MAX;
  return static_cast<int64_t>(value);
}

struct FreqInterval {
  int64_t ts;
  int64_t dur;
  std::optional<int64_t> freq;
  std::optional<uint32_t> counter_id;
};

// Each cpu row's frequency intervals (see the header), sorted by ts; indexed by ucpu.
std::vector<std::vector<FreqInterval>> FrequencyIntervalsByCpu(const TraceStorage& storage) {
  const TrackTable& tracks = storage.track;
  const CounterTable& counters = storage.counter;
  const CpuTable& cpus = storage.cpu;
  std::vector<std::vector<FreqInterval>> by_ucpu(cpus.row_count());
  const StringId counter_events = storage.strings().Find("counter");
  const StringId cpufreq = storage.strings().Find("cpufreq");
  if (counter_events == kNullStringId || cpufreq == kNullStringId) return by_ucpu;

  std::vector<bool> is_cpufreq(tracks.row_count(), false);
  for (uint32_t t = 0; t < tracks.row_count(); ++t) {
    is_cpufreq[t] = tracks.event_type[t] == counter_events && tracks.name[t] == cpufreq &&
                    !tracks.cpu.IsNull(t);
  }
  // Samples per track in (ts, id) order: each lasts until the next, the last to the trace's end.
  struct Sample {
    uint32_t track;
    int64_t ts;
    uint32_t id;
  };
  std::vector<Sample> samples;
  for (uint32_t c = 0; c < counters.row_count(); ++c) {
    const uint32_t track = counters.track_id[c];
    if (track < is_cpufreq.size() && is_cpufreq[track]) samples.push_back({track, counters.ts[c], c});
  }
  std::sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) {
    if (a.track != b.track) return a.track < b.track;
    return a.ts != b.ts ? a.ts < b.ts : a.id < b.id;
  });
  const int64_t trace_end = storage.end_ts();
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    const bool last = i + 1 == samples.size() || samples[i + 1].track != s.track;
    const FreqInterval interval{s.ts, (last ? trace_end : samples[i + 1].ts) - s.ts,
                                SqlCastToInt(counters.value[s.id]), s.id};
    // On every cpu row of the track's CPU number and machine.
    const uint32_t cpu_number = *tracks.cpu.Get(s.track);
    const std::optional<uint32_t> machine = tracks.machine_id.Get(s.track);
    for (uint32_t ucpu = 0; ucpu < cpus.row_count(); ++ucpu) {
      if (cpus.cpu.Get(ucpu) == cpu_number && cpus.machine_id.Get(ucpu) == machine) {
        by_ucpu[ucpu].push_back(interval);
      }
    }
  }
  const int64_t trace_start = storage.start_ts();
  for (std::vector<FreqInterval>& intervals : by_ucpu) {
    if (intervals.empty()) continue;
    std::stable_sort(intervals.begin(), intervals.end(),
                     [](const FreqInterval& a, const FreqInterval& b) { return a.ts < b.ts; });
    const int64_t first = intervals.front().ts;
    if (first > trace_start) {
      intervals.insert(intervals.begin(), {trace_start, first - trace_start, {}, {}});
    }
  }
  return by_ucpu;
}

// Calls fn(ucpu, utid, interval, ts, dur) for every piece of a sched row with dur > 0 of a
// thread that is not an idle task split by its CPU's frequency intervals (interval is nullptr
// for the NULL-frequency piece of a row no interval reaches), in the order of the sched row's
// ts, then its CPU, then the interval's ts.
template <typename Fn>
void ForEachPiece(const TraceStorage& storage, Fn fn) {
  const std::vector<std::vector<FreqInterval>> by_ucpu = FrequencyIntervalsByCpu(storage);
  const SchedSliceTable& sched = storage.sched_slice;
  const ThreadTable& threads = storage.thread;
  // sched.ts is sorted (declared so): only rows sharing a ts need ordering, by CPU.
  std::vector<uint32_t> rows;
  rows.reserve(sched.row_count());
  for (uint32_t s = 0; s < sched.row_count(); ++s) {
    const uint32_t utid = sched.utid[s];
    if (sched.dur[s] <= 0 || (utid < threads.row_count() && threads.is_idle[utid] != 0)) continue;
    rows.push_back(s);
  }
  for (size_t i = 0; i < rows.size();) {
    size_t j = i + 1;
    while (j < rows.size() && sched.ts[rows[j]] == sched.ts[rows[i]]) ++j;
    if (j - i > 1) {
      std::stable_sort(rows.begin() + i, rows.begin() + j,
                       [&](uint32_t a, uint32_t b) { return sched.ucpu[a] < sched.ucpu[b]; });
    }
    i = j;
  }
  static const std::vector<FreqInterval> kNone;
  for (const uint32_t s : rows) {
    const int64_t ts = sched.ts[s];
    const int64_t end = ts + sched.dur[s];
    const uint32_t utid = sched.utid[s];
    const uint32_t ucpu = sched.ucpu[s];
    const std::vector<FreqInterval>& intervals = ucpu < by_ucpu.size() ? by_ucpu[ucpu] : kNone;
    // The intervals from the one holding at ts (the latest start at or before it; all of them
    // when several start then) to the last starting before the end.
    auto holding = std::upper_bound(intervals.begin(), intervals.end(), ts,
                                    [](int64_t t, const FreqInterval& f) { return t < f.ts; });
    const int64_t lower = holding == intervals.begin() ? ts : std::prev(holding)->ts;
    auto it = std::lower_bound(intervals.begin(), intervals.end(), lower,
                               [](const FreqInterval& f, int64_t t) { return f.ts < t; });
    if (it == intervals.end() || it->ts >= end) {
      fn(ucpu, utid, nullptr, ts, end - ts);
      continue;
    }
    for (; it != intervals.end() && it->ts < end; ++it) {
      const int64_t piece_ts = std::max(ts, it->ts);
      fn(ucpu, utid, &*it, piece_ts, std::min(end, it->ts + it->dur) - piece_ts);
    }
  }
}

}  // namespace

void FillCpuFreqPerThread(const TraceStorage& storage, CpuFreqPerThreadTable* out) {
  ForEachPiece(storage, [&](uint32_t ucpu, uint32_t utid, const FreqInterval* f, int64_t ts,
                            int64_t dur) {
    const uint32_t row = out->Insert({.ts = ts, .dur = dur, .ucpu = ucpu, .utid = utid});
    if (!f) return;
    if (f->freq) out->freq.Set(row, *f->freq);
    if (f->counter_id) out->counter_id.Set(row, *f->counter_id);
  });
}

void FillThreadCpuCycles(const TraceStorage& storage, ThreadCpuCyclesTable* out) {
  struct Sums {
    int64_t runtime = 0;
    int64_t millicycles = 0;
    int64_t min_freq = INT64_MAX;
    int64_t max_freq = INT64_MIN;
    bool any_freq = false;
  };
  absl::flat_hash_map<std::pair<uint32_t, uint32_t>, Sums> by_thread_cpu;  // (utid, ucpu)
  ForEachPiece(storage, [&](uint32_t ucpu, uint32_t utid, const FreqInterval* f, int64_t,
                            int64_t dur) {
    Sums& sums = by_thread_cpu[{utid, ucpu}];
    sums.runtime += dur;
    if (!f || !f->freq) return;  // SUM, MIN and MAX skip NULL
    sums.any_freq = true;
    sums.millicycles += dur * *f->freq / 1000;  // integer division per piece, as the SQL did
    sums.min_freq = std::min(sums.min_freq, *f->freq);
    sums.max_freq = std::max(sums.max_freq, *f->freq);
  });
  std::vector<std::pair<uint32_t, uint32_t>> keys;
  keys.reserve(by_thread_cpu.size());
  for (const auto& [key, sums] : by_thread_cpu) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (const auto& key : keys) {
    const Sums& sums = by_thread_cpu[key];
    const uint32_t row = out->Insert({.utid = key.first, .ucpu = key.second, .runtime = sums.runtime});
    if (sums.any_freq) {
      out->millicycles.Set(row, sums.millicycles);
      out->min_freq.Set(row, sums.min_freq);
      out->max_freq.Set(row, sums.max_freq);
    }
  }
}

}  // namespace tw
