#pragma once
// What the polling data sources write: linux.process_stats reads /proc/<pid>/status of every
// process at each poll (VmRSS with its anon / file / shmem parts, VmSwap) and linux.sys_stats
// reads the thermal zones' temperatures. Both are written after the simulation, one packet per
// poll as traced_probes writes them, from models that give each value at any time.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tools/synth/trace_file.h"

namespace tw::tracegen {

struct ProcessMemoryModel {
  int32_t pid = 0;
  int64_t exists_from = 0;                    // no samples before (a process started later)
  int64_t exists_until = INT64_MAX;           // no samples from then on (a process killed)
  std::function<int64_t(int64_t ts)> anon_kb;  // RssAnon at `ts`
  int64_t file_kb = 0, shmem_kb = 0, swap_kb = 0;
  // VmRSS as the kernel reports it: the sum of its parts.
  int64_t RssKb(int64_t ts) const { return anon_kb(ts) + file_kb + shmem_kb; }
};

// Polls at from, from + period, ... < to; returns the number of polls.
int64_t WriteProcessStats(synth::TraceFile* file, const std::vector<ProcessMemoryModel>& processes,
                          int64_t from, int64_t to, int64_t period);

struct ThermalZoneModel {
  std::string name;  // the sysfs directory, e.g. "thermal_zone3"
  std::string type;  // what the zone measures, e.g. "skin-therm"
  std::function<int64_t(int64_t ts)> celsius;
};

// Polls at from, from + period, ... < to; returns the number of polls.
int64_t WriteThermalZones(synth::TraceFile* file, const std::vector<ThermalZoneModel>& zones,
                          int64_t from, int64_t to, int64_t period);

}  // namespace tw::tracegen
