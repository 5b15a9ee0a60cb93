// The stats table's scope columns: most stats are about one machine's data in one trace file;
// those about the import as a whole (parsing time, sorting, clock sync) belong to neither.

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "libs/trace/storage/stats_catalog.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {
namespace {

struct Scope {
  std::optional<uint32_t> machine_id;
  std::optional<uint32_t> trace_id;
};

Scope ScopeOf(TraceStorage& s, std::string_view name, std::optional<int64_t> idx = {}) {
  for (uint32_t r = 0; r < s.stats.row_count(); ++r) {
    if (s.Str(s.stats.name[r]) == name && s.stats.idx.Get(r) == idx) {
      return {s.stats.machine_id.Get(r), s.stats.trace_id.Get(r)};
    }
  }
  ADD_FAILURE() << "no stats row " << name;
  return {};
}

TEST(StatsScope, WholeImportStatsHaveNoMachineOrTrace) {
  TraceStorage s;
  s.SetStat("parse_trace_duration_ns", 1234);
  s.IncrementStat("sorter_push_event_out_of_order");
  s.IncrementStat("task_state_invalid");
  s.SetMachineStat(2, "ftrace_cpu_overrun_end", 1, 7);
  s.FinalizeStatsAndMetadata();

  for (const char* global : {"parse_trace_duration_ns", "sorter_push_event_out_of_order"}) {
    SCOPED_TRACE(global);
    EXPECT_TRUE(IsGlobalStat(global));
    const Scope scope = ScopeOf(s, global);
    EXPECT_FALSE(scope.machine_id.has_value());
    EXPECT_FALSE(scope.trace_id.has_value());
  }
  const Scope per_trace = ScopeOf(s, "task_state_invalid");
  EXPECT_EQ(per_trace.machine_id, 0u);
  EXPECT_EQ(per_trace.trace_id, 0u);
  const Scope remote = ScopeOf(s, "ftrace_cpu_overrun_end", 1);
  EXPECT_EQ(remote.machine_id, 2u);
  EXPECT_EQ(remote.trace_id, 0u);
  EXPECT_FALSE(IsGlobalStat("task_state_invalid"));
}

}  // namespace
}  // namespace tw
