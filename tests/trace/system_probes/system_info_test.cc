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

}  // namespace
}  // namespace tw
