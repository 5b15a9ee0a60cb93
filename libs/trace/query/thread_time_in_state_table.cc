#include "libs/trace/query/thread_time_in_state_table.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/query/sql_text_order.h"

namespace tw {

void FillThreadTimeInState(const TraceStorage& storage, ThreadTimeInStateTable* out) {
  const ThreadStateTable& states = storage.thread_state;
  const StringPool& strings = storage.strings();
  // A thread has a handful of distinct states: sum per (utid, state id), then order.
  absl::flat_hash_map<std::pair<uint32_t, StringId>, int64_t> totals;
  for (uint32_t row = 0; row < states.row_count(); ++row) {
    if (states.dur[row] > 0) totals[{states.utid[row], states.state[row]}] += states.dur[row];
  }
  std::vector<std::pair<std::pair<uint32_t, StringId>, int64_t>> rows(totals.begin(),
                                                                       totals.end());
  std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
    if (a.first.first != b.first.first) return a.first.first < b.first.first;
    return CompareSqlText(strings, a.first.second, b.first.second) < 0;
  });
  for (const auto& [key, time] : rows) {
    out->Insert({.utid = key.first, .state = key.second, .time_in_state = time});
  }
}

}  // namespace tw
