#include "tools/tracegen/device_model.h"

namespace tw::tracegen {

DeviceModel DeviceModel::Default(int refresh_hz) { return WithCores(refresh_hz, 4, 4); }

DeviceModel DeviceModel::WithCores(int refresh_hz, uint32_t little, uint32_t big) {
  DeviceModel d;
  d.cpus = little + big;
  d.refresh_hz = refresh_hz;
  d.clusters.push_back(CpuCluster{
      "little", 0, little, {300000, 574000, 738000, 930000, 1098000, 1197000, 1328000, 1401000,
                       1598000, 1704000, 1803000},
      0.42});
  d.clusters.push_back(CpuCluster{
      "big", little, big, {400000, 553000, 696000, 799000, 910000, 1024000, 1197000, 1328000, 1491000,
                    1663000, 1836000, 1999000, 2130000, 2253000, 2348000, 2850000},
      1.0});
  return d;
}

const CpuCluster& DeviceModel::ClusterOf(uint32_t cpu) const {
  return clusters[1].Has(cpu) ? clusters[1] : clusters[0];
}

}  // namespace tw::tracegen
