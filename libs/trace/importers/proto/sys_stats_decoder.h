#pragma once
// sys_stats packets (periodic /proc/meminfo, vmstat, stat, buddyinfo, diskstats, pressure,
// thermal, cpuidle and devfreq scrapes) become counters named, typed and dimensioned as
// trace_processor does: meminfo/vmstat keys by their kernel names, cpu.times.* per cpu,
// num_irq (id: N), mem.buddyinfo[...], diskstat.[dev].*, psi.*, thermal zones, cpuidle<N>.*,
// gpufreq, mem.slab.*.

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/counter_emitter.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class SysStatsDecoder {
 public:
  explicit SysStatsDecoder(ImportContext* ctx) : ctx_(ctx), counters_(ctx) {}

  void Decode(const PacketContext& packet, const proto::Field& field);

  // The kernel page size from system_info: buddyinfo orders and slab sizes are in pages.
  // trace_processor uses 0 until system_info says otherwise, and 4096 when it says nothing.
  void set_page_size(uint32_t bytes) { page_size_ = bytes; }

 private:
  void DecodeCpuTimes(const PacketContext& packet, const proto::Field& f);
  void DecodeInterrupts(const PacketContext& packet, const proto::Field& f, bool soft);
  void DecodeBuddyInfo(const PacketContext& packet, const proto::Field& f);
  void DecodeDiskStat(const PacketContext& packet, const proto::Field& f);
  bool DecodePsi(const PacketContext& packet, const proto::Field& f);
  void DecodeThermalZone(const PacketContext& packet, const proto::Field& f);
  void DecodeCpuIdle(const PacketContext& packet, const proto::Field& f);
  void DecodeSlabInfo(const PacketContext& packet, const proto::Field& f);

  // Cumulative /proc/diskstats values of a device at its previous sample: the counters are
  // per-interval amounts and rates.
  struct DiskState {
    bool valid = false;
    int64_t read_sectors = 0, write_sectors = 0, discard_sectors = 0, flush_count = 0;
    int64_t read_ms = 0, write_ms = 0, discard_ms = 0, flush_ms = 0;
  };

  ImportContext* ctx_;
  CounterEmitter counters_;
  uint32_t page_size_ = 0;
  absl::flat_hash_map<std::string, DiskState> disks_;
};

}  // namespace tw
