// cpu_per_uid_data: per-uid cpu time by cluster, incremental after the first value of a
// (uid, cluster) on a sequence; counters only where the value changes (plus the last unchanged
// sample before a change); isolated uids grouped per range; system / app totals; and the
// android_cpu_per_uid_track table with the time accrued during the trace.

#include <gtest/gtest.h>

#include <initializer_list>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace tp = pf::trace_packet;

constexpr uint32_t kClusterCount = 1, kUid = 2, kTotalTimeMs = 3;  // CpuPerUidData

proto::Writer CpuPerUid(std::optional<uint32_t> clusters, std::initializer_list<uint32_t> uids,
                        std::initializer_list<uint64_t> times) {
  proto::Writer w;
  if (clusters) w.Varint(kClusterCount, *clusters);
  w.Packed(kUid, std::vector<uint64_t>(uids.begin(), uids.end()));
  w.Packed(kTotalTimeMs, std::vector<uint64_t>(times.begin(), times.end()));
  return w;
}

TEST(CpuPerUidTest, IncrementalSparseCountersTotalsAndTrackTable) {
  // uid 0 is a system uid, 10005 an app, 1090001 an isolated uid (grouped as 1090000).
  auto t = TraceBuilder()
               .Add(tp::kCpuPerUidData,
                    CpuPerUid(2, {0, 10005, 1090001}, {10, 20, 100, 0, 5, 5}), 1000)
               .Add(tp::kCpuPerUidData, CpuPerUid({}, {0, 10005, 1090001}, {0, 0, 10, 0, 1, 0}),
                    2000)
               .Add(tp::kCpuPerUidData, CpuPerUid({}, {0, 10005, 1090001}, {5, 0, 0, 0, 0, 0}),
                    3000)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, c.ts, CAST(c.value AS INT) FROM counter c "
                     "JOIN counter_track t ON t.id = c.track_id "
                     "WHERE t.type = 'android_cpu_per_uid' ORDER BY t.name, c.ts"),
            (Grid{{"CPU for UID 0 CL0", "1000", "10"},
                  {"CPU for UID 0 CL0", "2000", "10"},  // kept: the value changes after it
                  {"CPU for UID 0 CL0", "3000", "15"},
                  {"CPU for UID 0 CL1", "1000", "20"},
                  {"CPU for UID 10005 CL0", "1000", "100"},
                  {"CPU for UID 10005 CL0", "2000", "110"},
                  {"CPU for UID 10005 CL1", "1000", "0"},
                  {"CPU for UID 1090000 CL0", "1000", "0"},  // the group: time in the trace
                  {"CPU for UID 1090000 CL0", "2000", "1"},
                  {"CPU for UID 1090000 CL1", "1000", "0"}}));
  EXPECT_EQ(Rows(*t, "SELECT t.name, c.ts, CAST(c.value AS INT), t.unit FROM counter c "
                     "JOIN counter_track t ON t.id = c.track_id "
                     "WHERE t.type = 'android_cpu_per_uid_totals' ORDER BY t.name, c.ts"),
            (Grid{{"CPU for Apps CL0", "1000", "0", "ms"},
                  {"CPU for Apps CL0", "2000", "11", "ms"},
                  {"CPU for Apps CL1", "1000", "0", "ms"},
                  {"CPU for System CL0", "1000", "0", "ms"},
                  {"CPU for System CL0", "2000", "0", "ms"},
                  {"CPU for System CL0", "3000", "5", "ms"},
                  {"CPU for System CL1", "1000", "0", "ms"}}));
  EXPECT_EQ(Rows(*t, "SELECT p.uid, p.cluster, p.total_cpu_millis, t.name "
                     "FROM __intrinsic_android_cpu_per_uid_track p "
                     "JOIN track t ON t.id = p.track_id ORDER BY p.uid, p.cluster"),
            (Grid{{"0", "0", "5", "CPU for UID 0 CL0"},
                  {"0", "1", "0", "CPU for UID 0 CL1"},
                  {"10005", "0", "10", "CPU for UID 10005 CL0"},
                  {"10005", "1", "0", "CPU for UID 10005 CL1"},
                  {"1090000", "0", "1", "CPU for UID 1090000 CL0"},
                  {"1090000", "1", "0", "CPU for UID 1090000 CL1"}}));
}

TEST(CpuPerUidTest, StdlibModuleGivesCpuUseBetweenSamples) {
  // Samples one second apart; uid 10005 belongs to an installed package.
  proto::Writer package;
  package.String(pf::packages_list_package_info::kName, "com.example.app");
  package.Varint(pf::packages_list_package_info::kUid, 10005);
  proto::Writer packages;
  packages.Message(pf::packages_list::kPackages, package);
  auto t = TraceBuilder()
               .Add(tp::kPackagesList, packages)
               .Add(tp::kCpuPerUidData, CpuPerUid(1, {0, 10005}, {1000, 2000}), 1000000000)
               .Add(tp::kCpuPerUidData, CpuPerUid({}, {0, 10005}, {500, 250}), 2000000000)
               .Load();
  ASSERT_TRUE(t);
  ASSERT_TRUE(t->Query("INCLUDE PERFETTO MODULE android.cpu.cpu_per_uid").ok());
  EXPECT_EQ(Rows(*t, "SELECT uid, cluster, total_cpu_millis, package_name "
                     "FROM android_cpu_per_uid_track ORDER BY uid"),
            (Grid{{"0", "0", "500", "NULL"}, {"10005", "0", "250", "com.example.app"}}));
  EXPECT_EQ(Rows(*t, "SELECT t.uid, c.ts, c.dur, CAST(c.diff_ms AS INT), c.cpu_ratio "
                     "FROM android_cpu_per_uid_counter c "
                     "JOIN android_cpu_per_uid_track t ON t.id = c.track_id ORDER BY t.uid"),
            (Grid{{"0", "1000000000", "1000000000", "500", "0.500000"},
                  {"10005", "1000000000", "1000000000", "250", "0.250000"}}));
}

TEST(CpuPerUidTest, MoreTimesThanUidsStopsAtTheLastUid) {
  auto t = TraceBuilder()
               .Add(tp::kCpuPerUidData, CpuPerUid(2, {7}, {1, 2, 3, 4, 5}), 1000)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, CAST(c.value AS INT) FROM counter c "
                     "JOIN counter_track t ON t.id = c.track_id "
                     "WHERE t.type = 'android_cpu_per_uid' ORDER BY t.name"),
            (Grid{{"CPU for UID 7 CL0", "1"}, {"CPU for UID 7 CL1", "2"}}));
}

}  // namespace
}  // namespace tw
