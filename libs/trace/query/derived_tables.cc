#include "libs/trace/query/derived_tables.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/query/cpu_freq_per_thread_tables.h"
#include "libs/trace/query/heap_graph_tree_tables.h"
#include "libs/trace/query/sched_latency_table.h"
#include "libs/trace/query/slice_stack_table.h"
#include "libs/trace/query/thread_slice_time_tables.h"
#include "libs/trace/query/thread_time_in_state_table.h"

namespace tw {

void FillSchedPreviousRunnable(const TraceStorage& storage, SchedPreviousRunnableTable* out) {
  const ThreadStateTable& ts = storage.thread_state;
  const StringPool& strings = storage.strings();
  const StringId running = strings.Find("Running");
  // What a state string is, looked up once per distinct string.
  enum Kind : uint8_t { kOther, kRunnable, kRunning };
  absl::flat_hash_map<StringId, Kind> kinds;
  auto kind_of = [&](StringId s) {
    auto [it, inserted] = kinds.try_emplace(s, kOther);
    if (inserted && s != kNullStringId) {
      if (s == running) {
        it->second = kRunning;
      } else if (!strings.Get(s).empty() && strings.Get(s)[0] == 'R') {
        it->second = kRunnable;  // R, R+ and any other state beginning with R but Running
      }
    }
    return it->second;
  };
  struct Latest {
    std::optional<uint32_t> runnable;
    std::optional<uint32_t> wakeup;
  };
  std::vector<Latest> by_utid(storage.thread.row_count());
  const uint32_t n = ts.row_count();
  for (uint32_t row = 0; row < n; ++row) {
    const Kind kind = kind_of(ts.state[row]);
    if (kind == kOther || ts.dur[row] == -1) continue;
    const uint32_t utid = ts.utid[row];
    if (utid >= by_utid.size()) by_utid.resize(utid + 1);
    Latest& latest = by_utid[utid];
    if (kind == kRunnable) latest.runnable = row;
    if (!ts.waker_utid.IsNull(row) && ts.irq_context.Get(row).value_or(0) != 1) {
      latest.wakeup = row;
    }
    if (kind == kRunning) {
      out->Insert({.thread_state_id = row,
                   .prev_runnable_id = latest.runnable,
                   .prev_wakeup_runnable_id = latest.wakeup});
    }
  }
}

namespace {

// Intervals as edges: +1 at each start, -1 at each end (none for dur -1).
struct Edges {
  std::vector<std::pair<int64_t, int32_t>> edges;
  void Add(int64_t ts, int64_t dur) {
    edges.emplace_back(ts, 1);
    if (dur != -1) edges.emplace_back(ts + dur, -1);
  }
  // One row per distinct edge timestamp with the running count after its edges.
  template <typename OverlapTable>
  void WriteTo(OverlapTable* out) {
    std::sort(edges.begin(), edges.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    int64_t open = 0;
    for (size_t i = 0; i < edges.size();) {
      const int64_t ts = edges[i].first;
      for (; i < edges.size() && edges[i].first == ts; ++i) open += edges[i].second;
      out->Insert({.ts = ts, .value = open});
    }
  }
};

// Step counter of the thread_state rows in state `state`.
template <typename OverlapTable>
void FillStateCount(const TraceStorage& storage, std::string_view state, OverlapTable* out) {
  const StringId id = storage.strings().Find(state);
  if (id == kNullStringId) return;
  const ThreadStateTable& ts = storage.thread_state;
  Edges edges;
  for (uint32_t row = 0; row < ts.row_count(); ++row) {
    if (ts.state[row] == id) edges.Add(ts.ts[row], ts.dur[row]);
  }
  edges.WriteTo(out);
}

void FillActiveCpuCount(const TraceStorage& storage, SchedActiveCpuCountTable* out) {
  const SchedSliceTable& sched = storage.sched_slice;
  const ThreadTable& threads = storage.thread;
  Edges edges;
  for (uint32_t row = 0; row < sched.row_count(); ++row) {
    const uint32_t utid = sched.utid[row];
    if (utid < threads.row_count() && threads.is_idle[utid] != 0) continue;
    edges.Add(sched.ts[row], sched.dur[row]);
  }
  edges.WriteTo(out);
}

template <typename T>
void AddDerived(std::vector<DerivedTable>* tables, std::function<void(T*)> fill) {
  auto table = std::make_unique<T>();
  T* raw = table.get();
  tables->push_back({std::move(table), [fill, raw] { fill(raw); }});
}

}  // namespace

std::vector<DerivedTable> MakeDerivedTables(const TraceStorage* storage) {
  std::vector<DerivedTable> tables;
  AddDerived<SchedRunnableCountTable>(&tables, [storage](SchedRunnableCountTable* t) {
    FillStateCount(*storage, "R", t);
  });
  AddDerived<SchedBlockedCountTable>(&tables, [storage](SchedBlockedCountTable* t) {
    FillStateCount(*storage, "D", t);
  });
  AddDerived<SchedActiveCpuCountTable>(&tables, [storage](SchedActiveCpuCountTable* t) {
    FillActiveCpuCount(*storage, t);
  });
  AddDerived<SchedPreviousRunnableTable>(&tables, [storage](SchedPreviousRunnableTable* t) {
    FillSchedPreviousRunnable(*storage, t);
  });
  AddDerived<SchedLatencyTable>(&tables, [storage](SchedLatencyTable* t) {
    FillSchedLatency(*storage, t);
  });
  AddDerived<SliceStackTable>(&tables, [storage](SliceStackTable* t) {
    FillSliceStack(*storage, t);
  });
  AddDerived<ThreadSliceStateTimeTable>(&tables, [storage](ThreadSliceStateTimeTable* t) {
    FillThreadSliceStateTime(*storage, t);
  });
  AddDerived<ThreadSliceSchedTimeTable>(&tables, [storage](ThreadSliceSchedTimeTable* t) {
    FillThreadSliceSchedTime(*storage, t);
  });
  AddDerived<ThreadTimeInStateTable>(&tables, [storage](ThreadTimeInStateTable* t) {
    FillThreadTimeInState(*storage, t);
  });
  AddDerived<CpuFreqPerThreadTable>(&tables, [storage](CpuFreqPerThreadTable* t) {
    FillCpuFreqPerThread(*storage, t);
  });
  AddDerived<ThreadCpuCyclesTable>(&tables, [storage](ThreadCpuCyclesTable* t) {
    FillThreadCpuCycles(*storage, t);
  });
  AddDerived<HeapGraphShortestPathTreeTable>(&tables, [storage](HeapGraphShortestPathTreeTable* t) {
    FillHeapGraphShortestPathTree(*storage, t);
  });
  AddDerived<HeapGraphDominatorTreeTable>(&tables, [storage](HeapGraphDominatorTreeTable* t) {
    FillHeapGraphDominatorTree(*storage, t);
  });
  AddDerived<HeapGraphClassTreeTable>(&tables, [storage](HeapGraphClassTreeTable* t) {
    FillHeapGraphClassTree(*storage, t);
  });
  AddDerived<HeapGraphDominatorClassTreeTable>(
      &tables, [storage](HeapGraphDominatorClassTreeTable* t) {
        FillHeapGraphDominatorClassTree(*storage, t);
      });
  return tables;
}

}  // namespace tw
