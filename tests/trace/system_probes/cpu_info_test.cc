// cpu_info packets → `cpu` rows (cluster ids as trace_processor assigns them) and `cpu_freq`.

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace cc = pf::cpu_info_cpu;

proto::Writer Cpu(const std::vector<uint32_t>& freqs, std::optional<uint32_t> capacity = {}) {
  proto::Writer c;
  c.String(cc::kProcessor, "AArch64 Processor rev 13 (aarch64)");
  for (uint32_t f : freqs) c.Varint(cc::kFrequencies, f);  // unpacked, as textproto writes it
  if (capacity) c.Varint(cc::kCapacity, *capacity);
  return c;
}

TEST(CpuInfoTest, ClustersFollowMaximumFrequency) {
  proto::Writer info;
  info.Message(pf::cpu_info::kCpus, Cpu({300000, 1708800}));
  info.Message(pf::cpu_info::kCpus, Cpu({300000, 1996800}));
  info.Message(pf::cpu_info::kCpus, Cpu({300000, 1708800}));
  auto t = TraceBuilder().Add(pf::trace_packet::kCpuInfo, info).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT cpu, cluster_id, processor, capacity FROM cpu ORDER BY cpu"),
            (Grid{{"0", "0", "AArch64 Processor rev 13 (aarch64)", "NULL"},
                  {"1", "1", "AArch64 Processor rev 13 (aarch64)", "NULL"},
                  {"2", "0", "AArch64 Processor rev 13 (aarch64)", "NULL"}}));
  EXPECT_EQ(Rows(*t,
                 "SELECT freq, GROUP_CONCAT(cpu) FROM "
                 "(SELECT * FROM cpu_available_frequencies ORDER BY cpu) "
                 "GROUP BY freq ORDER BY freq"),
            (Grid{{"300000", "0,1,2"}, {"1708800", "0,2"}, {"1996800", "1"}}));
}

TEST(CpuInfoTest, CapacitiesWinOverFrequencies) {
  proto::Writer info;
  info.Message(pf::cpu_info::kCpus, Cpu({2000000}, 1024));
  info.Message(pf::cpu_info::kCpus, Cpu({1000000}, 256));
  auto t = TraceBuilder().Add(pf::trace_packet::kCpuInfo, info).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT cpu, cluster_id, capacity FROM cpu ORDER BY cpu"),
            (Grid{{"0", "1", "1024"}, {"1", "0", "256"}}));
}

TEST(CpuInfoTest, EmptyPacketIsCounted) {
  auto t = TraceBuilder().Add(pf::trace_packet::kCpuInfo, proto::Writer()).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT COUNT(*) FROM cpu"), (Grid{{"0"}}));
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = 'cpu_info_empty'"), (Grid{{"1"}}));
}

}  // namespace
}  // namespace tw
