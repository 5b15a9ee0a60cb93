// sys_stats packets → system-wide and per-cpu counters with trace_processor's names.

#include <gtest/gtest.h>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace ss = pf::sys_stats;

proto::Writer KeyValue(uint64_t key, uint64_t value) {
  proto::Writer kv;
  kv.Varint(1, key);
  kv.Varint(2, value);
  return kv;
}

TEST(SysStatsTest, MeminfoInBytesAndVmstatByKernelName) {
  proto::Writer s;
  s.Message(ss::kMeminfo, KeyValue(1, 4));     // MEMINFO_MEM_TOTAL
  s.Message(ss::kMeminfo, KeyValue(9, 2));     // MEMINFO_ACTIVE_ANON
  s.Message(ss::kVmstat, KeyValue(1, 77));     // VMSTAT_NR_FREE_PAGES
  s.Message(ss::kMeminfo, KeyValue(9999, 1));  // unknown key
  auto t = TraceBuilder().Add(pf::trace_packet::kSysStats, s, 10).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT t.name, t.type, t.unit, c.value FROM counter c "
                 "JOIN counter_track t ON c.track_id = t.id ORDER BY t.name"),
            (Grid{{"Active(anon)", "meminfo", "bytes", "2048"},
                  {"MemTotal", "meminfo", "bytes", "4096"},
                  {"nr_free_pages", "vmstat", "NULL", "77"}}));
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = 'meminfo_unknown_keys'"),
            (Grid{{"1"}}));
}

TEST(SysStatsTest, CpuTimesArePerCpuCounters) {
  proto::Writer ct;
  ct.Varint(pf::sys_stats_cpu_times::kCpuId, 1);
  ct.Varint(pf::sys_stats_cpu_times::kUserNs, 119650000000);
  proto::Writer s;
  s.Message(ss::kCpuStat, ct);
  proto::Writer missing_cpu;
  missing_cpu.Varint(pf::sys_stats_cpu_times::kIdleNs, 5);
  s.Message(ss::kCpuStat, missing_cpu);
  auto t = TraceBuilder().Add(pf::trace_packet::kSysStats, s, 10).Load();
  ASSERT_TRUE(t);
  // All eight keys are recorded, absent ones as 0.
  EXPECT_EQ(Rows(*t,
                 "SELECT t.cpu, t.name, t.type, c.value FROM counter c "
                 "JOIN cpu_counter_track t ON c.track_id = t.id ORDER BY t.name"),
            (Grid{{"1", "cpu.times.idle_ns", "cpustat", "0"},
                  {"1", "cpu.times.io_wait_ns", "cpustat", "0"},
                  {"1", "cpu.times.irq_ns", "cpustat", "0"},
                  {"1", "cpu.times.softirq_ns", "cpustat", "0"},
                  {"1", "cpu.times.steal_ns", "cpustat", "0"},
                  {"1", "cpu.times.system_mode_ns", "cpustat", "0"},
                  {"1", "cpu.times.user_nice_ns", "cpustat", "0"},
                  {"1", "cpu.times.user_ns", "cpustat", "119650000000"}}));
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = 'invalid_cpu_times'"),
            (Grid{{"1"}}));
}

TEST(SysStatsTest, InterruptsForksThermalGpuAndCpuidle) {
  proto::Writer irq;
  irq.Int(pf::sys_stats_interrupt_count::kIrq, 3);
  irq.Varint(pf::sys_stats_interrupt_count::kCount, 30);
  proto::Writer thermal;
  thermal.String(pf::sys_stats_thermal_zone::kName, "thermal_zone0");
  thermal.Varint(pf::sys_stats_thermal_zone::kTemp, 29);
  thermal.String(pf::sys_stats_thermal_zone::kType, "x86_pkg_temp");
  proto::Writer entry;
  entry.String(pf::sys_stats_cpu_idle_state_entry::kState, "C8");
  entry.Varint(pf::sys_stats_cpu_idle_state_entry::kDurationUs, 486626084);
  proto::Writer idle;
  idle.Varint(pf::sys_stats_cpu_idle_state::kCpuId, 0);
  idle.Message(pf::sys_stats_cpu_idle_state::kCpuidleStateEntry, entry);
  proto::Writer s;
  s.Message(ss::kNumIrq, irq);
  s.Message(ss::kNumSoftirq, irq);
  s.Varint(ss::kNumForks, 12);
  s.Message(ss::kThermalZone, thermal);
  s.Varint(ss::kGpufreqMhz, 300);
  s.Message(ss::kCpuidleState, idle);
  auto t = TraceBuilder().Add(pf::trace_packet::kSysStats, s, 10).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT t.name, t.type, t.unit, c.value FROM counter c "
                 "JOIN counter_track t ON c.track_id = t.id ORDER BY t.name"),
            (Grid{{"cpuidle0.C8", "cpu_idle_state", "us", "486626084"},
                  {"gpufreq", "gpu_frequency", "kHz", "300"},
                  {"num_forks", "num_forks", "NULL", "12"},
                  {"num_irq (id: 3)", "num_irq", "NULL", "30"},
                  {"num_softirq (id: 3)", "num_softirq", "NULL", "30"},
                  {"x86_pkg_temp", "thermal_temperature_sys", "C", "29"}}));
}

TEST(SysStatsTest, CpufreqUsesTheCpuFrequencyTrack) {
  proto::Writer s;
  s.Packed(ss::kCpufreqKhz, std::vector<uint64_t>{300000, 1708800});
  auto t = TraceBuilder().Add(pf::trace_packet::kSysStats, s, 10).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT t.cpu, t.name, t.type, c.value FROM counter c "
                 "JOIN cpu_counter_track t ON c.track_id = t.id ORDER BY t.cpu"),
            (Grid{{"0", "cpufreq", "cpu_frequency", "300000"},
                  {"1", "cpufreq", "cpu_frequency", "1708800"}}));
}

TEST(SysStatsTest, DiskStatsAreIntervalAmounts) {
  auto disk = [](uint64_t read_sectors, uint64_t read_ms) {
    proto::Writer d;
    d.String(pf::sys_stats_disk_stat::kDeviceName, "sda");
    d.Varint(pf::sys_stats_disk_stat::kReadSectors, read_sectors);
    d.Varint(pf::sys_stats_disk_stat::kReadTimeMs, read_ms);
    proto::Writer s;
    s.Message(pf::sys_stats::kDiskStat, d);
    return s;
  };
  auto t = TraceBuilder()
               .Add(pf::trace_packet::kSysStats, disk(2048, 100), 10)
               .Add(pf::trace_packet::kSysStats, disk(6144, 600), 20)
               .Load();
  ASSERT_TRUE(t);
  // The first sample only primes the device's state.
  EXPECT_EQ(Rows(*t,
                 "SELECT c.ts, t.name, t.unit, c.value FROM counter c "
                 "JOIN counter_track t ON c.track_id = t.id "
                 "WHERE t.name GLOB 'diskstat.*.read_*' ORDER BY t.name"),
            (Grid{{"20", "diskstat.[sda].read_amount", "MB", "2"},
                  {"20", "diskstat.[sda].read_throughput", "MB/s", "4"}}));
}

TEST(SysStatsTest, PsiAndBuddyInfo) {
  proto::Writer psi;
  psi.Varint(pf::sys_stats_psi_sample::kResource, pf::psi_resource::kMemoryFull);
  psi.Varint(pf::sys_stats_psi_sample::kTotalNs, 123);
  proto::Writer buddy;
  buddy.String(pf::sys_stats_buddy_info::kNode, "0");
  buddy.String(pf::sys_stats_buddy_info::kZone, "Normal");
  buddy.Packed(pf::sys_stats_buddy_info::kOrderPages, std::vector<uint32_t>{5, 6});
  proto::Writer s;
  s.Message(ss::kPsi, psi);
  s.Message(ss::kBuddyInfo, buddy);
  proto::Writer info;
  info.Varint(pf::system_info::kPageSize, 4096);
  auto t = TraceBuilder()
               .Add(pf::trace_packet::kSystemInfo, info)
               .Add(pf::trace_packet::kSysStats, s, 10)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT t.name, c.value FROM counter c "
                 "JOIN counter_track t ON c.track_id = t.id ORDER BY t.name"),
            (Grid{{"mem.buddyinfo[0][Normal][4 kB]", "5"},
                  {"mem.buddyinfo[0][Normal][8 kB]", "6"},
                  {"psi.mem.full", "123"}}));
}

}  // namespace
}  // namespace tw
