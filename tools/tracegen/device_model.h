#pragma once
// The simulated phone: CPUs in a little and a big cluster with their frequency tables, the
// display refresh rate, and the build facts written into system_info.

#include <cstdint>
#include <string>
#include <vector>

namespace tw::tracegen {

struct CpuCluster {
  std::string name;
  uint32_t first_cpu = 0;
  uint32_t cpu_count = 0;
  std::vector<uint32_t> freqs_khz;  // ascending, as cpufreq's scaling_available_frequencies
  // Work per ns at the top frequency, relative to the big cluster's top frequency (1.0).
  double capacity = 1.0;
  bool Has(uint32_t cpu) const { return cpu >= first_cpu && cpu < first_cpu + cpu_count; }
  uint32_t max_khz() const { return freqs_khz.back(); }
};

struct DeviceModel {
  uint32_t cpus = 8;
  std::vector<CpuCluster> clusters;  // [0] little, [1] big
  int refresh_hz = 60;
  std::string kernel_release = "5.15.137-android14-11-g8e2b3c4d5e6f";
  std::string kernel_version = "#1 SMP PREEMPT Mon Oct 16 12:00:00 UTC 2023";
  std::string fingerprint = "google/tracewise/tw_device:14/UQ1A.240105.004/11206848:userdebug/dev-keys";
  uint64_t sdk = 34;

  // A Pixel-like 4+4 octa-core with the given refresh rate (60, 90 or 120 Hz).
  static DeviceModel Default(int refresh_hz);
  // The same phone with `little` little and `big` big cores (e.g. 6+2, 2+2): other device
  // models, so analyses are not tuned to one core count.
  static DeviceModel WithCores(int refresh_hz, uint32_t little, uint32_t big);
  int64_t vsync_period_ns() const { return 1'000'000'000LL / refresh_hz; }
  const CpuCluster& ClusterOf(uint32_t cpu) const;
  bool IsBig(uint32_t cpu) const { return clusters[1].Has(cpu); }
};

}  // namespace tw::tracegen
