// system_info packets → metadata keys and the host row of `machine`.

#include <gtest/gtest.h>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace si = pf::system_info;

proto::Writer Utsname() {
  proto::Writer u;
  u.String(pf::utsname::kSysname, "Linux");
  u.String(pf::utsname::kVersion, "#1 SMP PREEMPT");
  u.String(pf::utsname::kRelease, "6.6.82-android15");
  u.String(pf::utsname::kMachine, "aarch64");
  return u;
}

TEST(SystemInfoTest, UtsnameTimezoneAndRamBecomeMetadata) {
  proto::Writer info;
  info.Message(si::kUtsname, Utsname());
  info.Int(si::kTimezoneOffMins, 60);
  info.Varint(si::kSystemRamBytes, 126598774784);
  info.String(si::kTracingServiceVersion, "Perfetto v50.1 (N/A)");
  info.String(si::kAndroidSocModel, "soc");
  auto t = TraceBuilder().Add(pf::trace_packet::kSystemInfo, info).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT name, COALESCE(str_value, int_value) FROM metadata WHERE name IN ("
                 "'system_name', 'system_version', 'system_release', 'system_machine', "
                 "'timezone_off_mins', 'system_ram_bytes', 'system_ram_gb', "
                 "'tracing_service_version', 'android_soc_model') ORDER BY name"),
            (Grid{{"android_soc_model", "soc"},
                  {"system_machine", "aarch64"},
                  {"system_name", "Linux"},
                  {"system_ram_bytes", "126598774784"},
                  {"system_ram_gb", "127"},
                  {"system_release", "6.6.82-android15"},
                  {"system_version", "#1 SMP PREEMPT"},
                  {"timezone_off_mins", "60"},
                  {"tracing_service_version", "Perfetto v50.1 (N/A)"}}));
}

TEST(SystemInfoTest, FingerprintImpliesSdkAndIncrementalBuild) {
  proto::Writer info;
  info.String(si::kAndroidBuildFingerprint,
              "google/coral/coral:12/SP1A.210812.015/7679548:userdebug/dev-keys");
  auto t = TraceBuilder().Add(pf::trace_packet::kSystemInfo, info).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT name, COALESCE(str_value, int_value) FROM metadata WHERE name IN ("
                 "'android_build_fingerprint', 'android_incremental_build', "
                 "'android_sdk_version') ORDER BY name"),
            (Grid{{"android_build_fingerprint",
                   "google/coral/coral:12/SP1A.210812.015/7679548:userdebug/dev-keys"},
                  {"android_incremental_build", "7679548"},
                  {"android_sdk_version", "31"}}));
}

TEST(SystemInfoTest, ExplicitSdkVersionWins) {
  proto::Writer info;
  info.String(si::kAndroidBuildFingerprint, "a/b/c:12/ID/42:user/release-keys");
  info.Varint(si::kAndroidSdkVersion, 33);
  auto t = TraceBuilder().Add(pf::trace_packet::kSystemInfo, info).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT int_value FROM metadata WHERE name = 'android_sdk_version'"),
            (Grid{{"33"}}));
}

TEST(SystemInfoTest, HostMachineRowDescribesTheDevice) {
  proto::Writer info;
  info.Message(si::kUtsname, Utsname());
  info.Varint(si::kNumCpus, 8);
  info.String(si::kAndroidDeviceManufacturer, "Android");
  info.Varint(si::kAndroidSdkVersion, 33);
  auto t = TraceBuilder().Add(pf::trace_packet::kSystemInfo, info).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT raw_id, sysname, release, arch, num_cpus, "
                 "android_device_manufacturer, android_sdk_version FROM __intrinsic_machine"),
            (Grid{{"0", "Linux", "6.6.82-android15", "aarch64", "8", "Android", "33"}}));
}


// A packet of `field` written by the machine with raw id `raw_machine_id` (0: the host).
proto::Writer MachinePacket(uint32_t field, const proto::Writer& payload, uint32_t sequence,
                            uint32_t raw_machine_id) {
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, sequence);
  if (raw_machine_id) packet.Varint(pf::trace_packet::kMachineId, raw_machine_id);
  packet.Message(field, payload);
  return packet;
}

proto::Writer NamedSystem(std::string_view sysname) {
  proto::Writer u;
  u.String(pf::utsname::kSysname, sysname);
  proto::Writer info;
  info.Message(si::kUtsname, u);
  return info;
}

// Packets that carry a TracePacket.machine_id describe a remote machine: once the host has
// written data, a remote machine gets its own `machine` row (in the order machines first appear,
// the host always first), and its facts and stats carry its machine_id.
TEST(SystemInfoTest, RemoteMachinesGetTheirOwnRowsMetadataAndStats) {
  proto::Writer ram;
  ram.Varint(si::kSystemRamBytes, 12008292352);
  ram.Varint(si::kNumCpus, 8);
  auto cpu_stats = [](uint64_t entries) {
    proto::Writer cpu;
    cpu.Varint(pf::ftrace_cpu_stats::kCpu, 0);
    cpu.Varint(pf::ftrace_cpu_stats::kEntries, entries);
    proto::Writer stats;
    stats.Varint(pf::ftrace_stats::kPhase, pf::ftrace_stats_phase::kStartOfTrace);
    stats.Message(pf::ftrace_stats::kCpuStats, cpu);
    return stats;
  };
  // An ftrace bundle whose cpu's data is complete from `start` on.
  auto bundle = [](uint32_t cpu, uint64_t start) {
    proto::Writer b;
    b.Varint(pf::ftrace_event_bundle::kCpu, cpu);
    b.Varint(pf::ftrace_event_bundle::kPreviousBundleEndTimestamp, start);
    return b;
  };
  auto t = TraceBuilder()
               .AddRaw(MachinePacket(pf::trace_packet::kSystemInfo, NamedSystem("Linux"), 2, 0))
               .AddRaw(MachinePacket(pf::trace_packet::kSystemInfo, ram, 1, 7777))
               .AddRaw(MachinePacket(pf::trace_packet::kSystemInfo, NamedSystem("QNX"), 1, 7777))
               .AddRaw(MachinePacket(pf::trace_packet::kFtraceStats, cpu_stats(7), 2, 0))
               .AddRaw(MachinePacket(pf::trace_packet::kFtraceStats, cpu_stats(11), 1, 7777))
               .AddRaw(MachinePacket(pf::trace_packet::kFtraceEvents, bundle(0, 1000), 2, 0))
               .AddRaw(MachinePacket(pf::trace_packet::kFtraceEvents, bundle(1, 1500), 2, 0))
               .AddRaw(MachinePacket(pf::trace_packet::kFtraceEvents, bundle(0, 9000), 2, 0))
               .AddRaw(MachinePacket(pf::trace_packet::kFtraceEvents, bundle(0, 2000), 1, 7777))
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT id, raw_id, sysname, num_cpus, system_ram_gb, label_index "
                     "FROM machine ORDER BY id"),
            (Grid{{"0", "0", "Linux", "NULL", "NULL", "0"},
                  {"1", "7777", "QNX", "8", "12", "1"}}));
  EXPECT_EQ(Rows(*t, "SELECT name, machine_id, COALESCE(str_value, int_value) FROM metadata "
                     "WHERE name IN ('system_name', 'ftrace_latest_data_start_ns') "
                     "ORDER BY name, machine_id"),
            (Grid{{"ftrace_latest_data_start_ns", "0", "1500"},
                  {"ftrace_latest_data_start_ns", "1", "2000"},
                  {"system_name", "0", "Linux"},
                  {"system_name", "1", "QNX"}}));
  EXPECT_EQ(Rows(*t, "SELECT extract_metadata('system_name'), "
                     "extract_metadata_for_machine(1, 'system_name')"),
            (Grid{{"Linux", "QNX"}}));
  EXPECT_EQ(Rows(*t, "SELECT machine_id, idx, value FROM stats "
                     "WHERE name = 'ftrace_cpu_entries_begin' ORDER BY machine_id"),
            (Grid{{"0", "0", "7"}, {"1", "0", "11"}}));
}

// A remote machine's counters live on its own tracks (machine_id), even where its CPUs and
// keys are the same as the host's; identical dimension sets still share their args, and an
// arg set's id is the id of its first row (as in trace_processor) for every set in the table.
TEST(SystemInfoTest, RemoteMachineCountersGetTheirOwnTracks) {
  auto cpu_times = [](uint64_t user_ns) {
    proto::Writer cpu;
    cpu.Varint(pf::sys_stats_cpu_times::kCpuId, 0);
    cpu.Varint(pf::sys_stats_cpu_times::kUserNs, user_ns);
    proto::Writer stats;
    stats.Message(pf::sys_stats::kCpuStat, cpu);
    return stats;
  };
  auto at = [](proto::Writer packet, uint64_t ts) {
    packet.Varint(pf::trace_packet::kTimestamp, ts);
    return packet;
  };
  auto t = TraceBuilder()
               .AddRaw(at(MachinePacket(pf::trace_packet::kSysStats, cpu_times(10), 1, 0), 100))
               .AddRaw(at(MachinePacket(pf::trace_packet::kSysStats, cpu_times(20), 2, 1001), 200))
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT m.raw_id, CAST(c.value AS INT) FROM counter c JOIN counter_track t "
                     "ON t.id = c.track_id JOIN machine m ON m.id = t.machine_id "
                     "WHERE t.name = 'cpu.times.user_ns' ORDER BY c.ts"),
            (Grid{{"0", "10"}, {"1001", "20"}}));
  EXPECT_EQ(Rows(*t, "SELECT COUNT(DISTINCT dimension_arg_set_id), COUNT(*) FROM track "
                     "WHERE name = 'cpu.times.user_ns'"),
            (Grid{{"1", "2"}}));
  EXPECT_EQ(Rows(*t, "SELECT COUNT(*) FROM args WHERE arg_set_id != "
                     "(SELECT MIN(id) FROM args a2 WHERE a2.arg_set_id = args.arg_set_id)"),
            (Grid{{"0"}}));
}

// A trace whose data all comes from one remote machine (its own trace, recorded through a relay)
// is that machine's: it takes the host's row 0, relabelled with its raw id, as trace_processor
// adopts it. Once the host has written data, a remote machine gets a row of its own instead.
TEST(SystemInfoTest, ATraceOfOneRemoteMachineAdoptsItAsRowZero) {
  auto cpu_times = [](uint64_t user_ns) {
    proto::Writer cpu;
    cpu.Varint(pf::sys_stats_cpu_times::kCpuId, 0);
    cpu.Varint(pf::sys_stats_cpu_times::kUserNs, user_ns);
    proto::Writer stats;
    stats.Message(pf::sys_stats::kCpuStat, cpu);
    return stats;
  };
  auto t = TraceBuilder()
               .AddRaw(MachinePacket(pf::trace_packet::kSysStats, cpu_times(10), 1, 1001))
               .AddRaw(MachinePacket(pf::trace_packet::kSystemInfo, NamedSystem("Linux"), 2, 0))
               .AddRaw(MachinePacket(pf::trace_packet::kSysStats, cpu_times(20), 1, 1001))
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT id, raw_id, sysname FROM machine"), (Grid{{"0", "1001", "Linux"}}));
  EXPECT_EQ(Rows(*t, "SELECT t.machine_id, COUNT(*) FROM counter c JOIN counter_track t "
                     "ON t.id = c.track_id WHERE t.name = 'cpu.times.user_ns' GROUP BY 1"),
            (Grid{{"0", "2"}}));

  auto host_first = TraceBuilder()
                        .AddRaw(MachinePacket(pf::trace_packet::kSystemInfo, NamedSystem("Linux"), 2, 0))
                        .AddRaw(MachinePacket(pf::trace_packet::kSysStats, cpu_times(10), 1, 1001))
                        .Load();
  ASSERT_TRUE(host_first);
  EXPECT_EQ(Rows(*host_first, "SELECT id, raw_id FROM machine ORDER BY id"),
            (Grid{{"0", "0"}, {"1", "1001"}}));
  EXPECT_EQ(Rows(*host_first, "SELECT machine_id FROM counter_track WHERE name = 'cpu.times.user_ns'"),
            (Grid{{"1"}}));
}

}  // namespace
}  // namespace tw
