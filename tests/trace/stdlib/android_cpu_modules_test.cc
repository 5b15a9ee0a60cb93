// android.cpu.cluster_type over hand-built CPUs and scheduling.

#include "gtest/gtest.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;
using stdlib_testing::TraceBuilder;

// CPUs numbered 0..n-1 with the given cluster ids.
void AddCpus(TraceBuilder& b, const std::vector<uint32_t>& clusters) {
  for (uint32_t c : clusters) {
    const uint32_t row = b.s.cpu.Insert({.cpu = b.s.cpu.row_count()});
    b.s.cpu.cluster_id.Set(row, c);
  }
}

Table Mapping(TraceBuilder& b) {
  auto db = stdlib_testing::OpenOrDie(b.storage.get());
  return Rows(*db, "INCLUDE PERFETTO MODULE android.cpu.cluster_type;"
                   "SELECT cpu, cluster_type FROM android_cpu_cluster_mapping");
}

TEST(AndroidCpuClusterType, NamesTwoThreeAndFourClusters) {
  TraceBuilder two;
  AddCpus(two, {0, 0, 1, 1});
  EXPECT_EQ(Mapping(two), (Table{{"0", "little"}, {"1", "little"}, {"2", "big"}, {"3", "big"}}));
  TraceBuilder three;
  AddCpus(three, {0, 1, 1, 2});
  EXPECT_EQ(Mapping(three),
            (Table{{"0", "little"}, {"1", "medium"}, {"2", "medium"}, {"3", "big"}}));
  TraceBuilder four;
  AddCpus(four, {0, 1, 2, 3});
  EXPECT_EQ(Mapping(four), (Table{{"0", "little"}, {"1", "medium"}, {"2", "medium"}, {"3", "big"}}));
}

TEST(AndroidCpuClusterType, OneClusterOrMoreThanFourIsUnknown) {
  TraceBuilder one;
  AddCpus(one, {0, 0});
  EXPECT_EQ(Mapping(one), (Table{{"0", "NULL"}, {"1", "NULL"}}));
  TraceBuilder five;
  AddCpus(five, {0, 1, 2, 3, 4});
  for (const auto& row : Mapping(five)) EXPECT_EQ(row[1], "NULL");
}

TEST(AndroidCpuClusterType, ActiveCpuCountFollowsNonIdleTasks) {
  TraceBuilder b;
  AddCpus(b, {0, 0, 1});
  const uint32_t idle = b.Thread(0, "swapper");
  b.s.thread.is_idle.Set(idle, 1);
  const uint32_t worker = b.Thread(10, "worker");
  b.Sched(0, 100, 50, worker);  // little: [100, 150)
  b.Sched(1, 120, 100, worker); // little: [120, 220)
  b.Sched(1, 220, 30, idle);    // the idle task does not count
  b.Sched(2, 100, 10, worker);  // big
  auto db = stdlib_testing::OpenOrDie(b.storage.get());
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE android.cpu.cluster_type;"
                      "SELECT ts, active_cpu_count FROM _active_cpu_count_for_cluster_type('little')"),
            (Table{{"100", "1"}, {"120", "2"}, {"150", "1"}, {"220", "0"}}));
}

}  // namespace
}  // namespace tw
