#include "libs/trace/query/sched_latency_table.h"

#include <optional>

#include "libs/trace/query/derived_tables.h"

namespace tw {

void FillSchedLatency(const TraceStorage& storage, SchedLatencyTable* out) {
  SchedPreviousRunnableTable previous;
  FillSchedPreviousRunnable(storage, &previous);

  // sched_slice.ts is sorted (its declaration says so, and range plans rely on it): the sched
  // rows starting at a running state's ts are one binary search away, in id order.
  const SchedSliceTable& sched = storage.sched_slice;
  const uint32_t sched_rows = sched.row_count();
  auto first_at_or_after = [&](int64_t ts) {
    uint32_t lo = 0, hi = sched_rows;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (sched.ts[mid] < ts) lo = mid + 1; else hi = mid;
    }
    return lo;
  };

  const ThreadStateTable& states = storage.thread_state;
  for (uint32_t i = 0; i < previous.row_count(); ++i) {
    const std::optional<uint32_t> runnable = previous.prev_runnable_id.Get(i);
    if (!runnable) continue;
    const uint32_t running = previous.thread_state_id[i];
    const uint32_t utid = states.utid[running];
    const int64_t ts = states.ts[running];
    const int64_t dur = states.dur[running];
    for (uint32_t s = first_at_or_after(ts); s < sched_rows && sched.ts[s] == ts; ++s) {
      if (sched.utid[s] != utid || sched.dur[s] != dur) continue;
      out->Insert({.thread_state_id = running,
                   .sched_id = s,
                   .utid = states.utid[*runnable],
                   .runnable_latency_id = *runnable,
                   .latency_dur = states.dur[*runnable]});
    }
  }
}

}  // namespace tw
