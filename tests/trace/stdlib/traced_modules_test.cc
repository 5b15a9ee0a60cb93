// traced.stats over hand-set trace stats.

#include "gtest/gtest.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;
using stdlib_testing::TraceBuilder;

TEST(TracedStats, FlushLatenciesPerBufferFromCloneStartAndTrigger) {
  TraceBuilder b;
  b.s.SetStat("traced_clone_started_timestamp_ns", 7'000'000);
  b.s.SetStat("traced_clone_trigger_timestamp_ns", 6'500'000);
  b.s.SetIndexedStat("traced_buf_clone_done_timestamp_ns", 3, 9'000'000);
  b.s.SetIndexedStat("traced_buf_clone_done_timestamp_ns", 1, 7'250'000);
  b.s.FinalizeStatsAndMetadata();
  auto db = stdlib_testing::OpenOrDie(b.storage.get());
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE traced.stats;"
                      "SELECT buffer_id, duration_ns, machine_id, trace_id"
                      " FROM traced_clone_flush_latency"),
            (Table{{"1", "250000", "0", "0"}, {"3", "2000000", "0", "0"}}));
  EXPECT_EQ(Rows(*db, "SELECT buffer_id, duration_ns FROM traced_trigger_clone_flush_latency"),
            (Table{{"1", "750000"}, {"3", "2500000"}}));
}

TEST(TracedStats, NoCloneStartMeansNoFlushLatency) {
  TraceBuilder b;
  b.s.SetStat("traced_clone_trigger_timestamp_ns", 1'000);
  b.s.SetIndexedStat("traced_buf_clone_done_timestamp_ns", 0, 5'000);
  b.s.FinalizeStatsAndMetadata();
  auto db = stdlib_testing::OpenOrDie(b.storage.get());
  EXPECT_TRUE(Rows(*db, "INCLUDE PERFETTO MODULE traced.stats;"
                        "SELECT * FROM traced_clone_flush_latency").empty());
  EXPECT_EQ(Rows(*db, "SELECT buffer_id, duration_ns FROM traced_trigger_clone_flush_latency"),
            (Table{{"0", "4000"}}));
}

}  // namespace
}  // namespace tw
