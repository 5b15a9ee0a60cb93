#include "libs/trace/importers/proto/sys_stats_decoder.h"

#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/repeated_varints.h"
#include "libs/trace/importers/proto/sys_stats_names.h"

namespace tw {
namespace {

namespace ss = pf::sys_stats;
using Scope = CounterData::Scope;

// trace_processor handles the kinds of a SysStats message in this order (not field order), which
// fixes the order counters with equal timestamps get their rows and tracks their ids.
constexpr std::array<uint32_t, 17> kHandlingOrder = {
    ss::kMeminfo,     ss::kDevfreq,     ss::kCpufreqKhz,      ss::kVmstat,     ss::kCpuStat,
    ss::kNumIrq,      ss::kNumSoftirq,  ss::kNumForks,        ss::kNumIrqTotal,
    ss::kNumSoftirqTotal, ss::kBuddyInfo, ss::kDiskStat,      ss::kPsi,        ss::kThermalZone,
    ss::kCpuidleState, ss::kGpufreqMhz, ss::kSlabInfo,
};
constexpr uint32_t kMaxField = ss::kSlabInfo;

// PsiSample.PsiResource → the suffix of the psi.* counter name.
const char* PsiResourceKey(uint64_t resource) {
  switch (resource) {
    case pf::psi_resource::kUnspecified: return "resource.unspecified";
    case pf::psi_resource::kCpuSome: return "cpu.some";
    case pf::psi_resource::kCpuFull: return "cpu.full";
    case pf::psi_resource::kIoSome: return "io.some";
    case pf::psi_resource::kIoFull: return "io.full";
    case pf::psi_resource::kMemorySome: return "mem.some";
    case pf::psi_resource::kMemoryFull: return "mem.full";
    default: return nullptr;
  }
}

// Reads a {key (varint), value (varint)} pair message (MeminfoValue, VmstatValue).
void ReadKeyValue(const proto::Field& f, uint64_t* key, uint64_t* value) {
  *key = 0;
  *value = 0;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == 1) *key = x.int_value;
    if (x.id == 2) *value = x.int_value;
  }
}

}  // namespace

void SysStatsDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  std::array<std::vector<proto::Field>, kMaxField + 1> by_kind;
  {
    proto::Decoder d(field);
    proto::Field f;
    while (d.Next(&f)) {
      if (f.id <= kMaxField) by_kind[f.id].push_back(f);
    }
    if (d.error()) ctx_->storage->IncrementStat("proto_decode_errors");
  }
  uint32_t cpu = 0;  // index into cpufreq_khz
  for (uint32_t kind : kHandlingOrder) {
    for (const proto::Field& f : by_kind[kind]) {
      switch (kind) {
        case ss::kMeminfo: {
          uint64_t key, value;
          ReadKeyValue(f, &key, &value);
          const std::string_view name = MeminfoCounterName(key);
          if (name.empty()) {
            ctx_->storage->IncrementStat("meminfo_unknown_keys");
            break;
          }
          // /proc/meminfo is in kB; tables hold bytes.
          counters_.Emit(packet,
                         {Scope::kGlobal, 0, name, "meminfo", "bytes",
                          {counters_.StringDimension("meminfo_key", name)}},
                         static_cast<double>(value) * 1024);
          break;
        }
        case ss::kDevfreq: {
          std::string key;
          uint64_t value = 0;
          proto::Decoder d(f);
          proto::Field x;
          while (d.Next(&x)) {
            if (x.id == pf::sys_stats_devfreq_value::kKey) key = std::string(x.as_string());
            if (x.id == pf::sys_stats_devfreq_value::kValue) value = x.int_value;
          }
          counters_.Emit(packet,
                         {Scope::kGlobal, 0, key + " Frequency", "clock_frequency", {},
                          {counters_.StringDimension("linux_device", key)}},
                         static_cast<double>(value));
          break;
        }
        case ss::kCpufreqKhz:
          // One value per cpu, in cpu order: the same track as ftrace's cpu_frequency.
          proto::ForEachVarint(f, [&](uint64_t khz) {
            counters_.Emit(packet, {Scope::kCpu, cpu++, "cpufreq", "cpu_frequency"},
                           static_cast<double>(khz));
          });
          break;
        case ss::kVmstat: {
          uint64_t key, value;
          ReadKeyValue(f, &key, &value);
          const std::string_view name = VmstatCounterName(key);
          if (name.empty()) {
            ctx_->storage->IncrementStat("vmstat_unknown_keys");
            break;
          }
          counters_.Emit(packet,
                         {Scope::kGlobal, 0, name, "vmstat", {},
                          {counters_.StringDimension("vmstat_key", name)}},
                         static_cast<double>(value));
          break;
        }
        case ss::kCpuStat:
          DecodeCpuTimes(packet, f);
          break;
        case ss::kNumIrq:
        case ss::kNumSoftirq:
          DecodeInterrupts(packet, f, kind == ss::kNumSoftirq);
          break;
        case ss::kNumForks:
        case ss::kNumIrqTotal:
        case ss::kNumSoftirqTotal: {
          const char* name = kind == ss::kNumForks      ? "num_forks"
                             : kind == ss::kNumIrqTotal ? "num_irq_total"
                                                        : "num_softirq_total";
          counters_.Emit(packet, {Scope::kGlobal, 0, name, name},
                         static_cast<double>(f.int_value));
          break;
        }
        case ss::kBuddyInfo:
          DecodeBuddyInfo(packet, f);
          break;
        case ss::kDiskStat:
          DecodeDiskStat(packet, f);
          break;
        case ss::kPsi:
          // trace_processor abandons the rest of the packet at an unknown resource.
          if (!DecodePsi(packet, f)) return;
          break;
        case ss::kThermalZone:
          DecodeThermalZone(packet, f);
          break;
        case ss::kCpuidleState:
          DecodeCpuIdle(packet, f);
          break;
        case ss::kGpufreqMhz:
          // Single-GPU devices: the frequency of gpu 0.
          proto::ForEachVarint(f, [&](uint64_t mhz) {
            counters_.Emit(packet,
                           {Scope::kGlobal, 0, "gpufreq", "gpu_frequency", "kHz",
                            {counters_.IntDimension("ugpu", 0),
                             counters_.IntDimension("gpu", 0)}},
                           static_cast<double>(mhz));
          });
          break;
        case ss::kSlabInfo:
          DecodeSlabInfo(packet, f);
          break;
      }
    }
  }
}

void SysStatsDecoder::DecodeCpuTimes(const PacketContext& packet, const proto::Field& f) {
  namespace ct = pf::sys_stats_cpu_times;
  std::optional<uint32_t> cpu;
  uint64_t values[ct::kStealNs + 1] = {};
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == ct::kCpuId) {
      cpu = x.as_uint32();
    } else if (x.id <= ct::kStealNs) {
      values[x.id] = x.int_value;
    }
  }
  if (!cpu) {
    ctx_->storage->IncrementStat("invalid_cpu_times");
    return;
  }
  // Every key is emitted, present or not (absent ones read as 0), as trace_processor does.
  static constexpr std::pair<uint32_t, const char*> kKeys[] = {
      {ct::kUserNs, "user_ns"},     {ct::kUserNiceNs, "user_nice_ns"},
      {ct::kSystemModeNs, "system_mode_ns"}, {ct::kIdleNs, "idle_ns"},
      {ct::kIoWaitNs, "io_wait_ns"}, {ct::kIrqNs, "irq_ns"},
      {ct::kSoftirqNs, "softirq_ns"}, {ct::kStealNs, "steal_ns"},
  };
  for (const auto& [field, key] : kKeys) {
    counters_.Emit(packet,
                   {Scope::kCpu, *cpu, std::string("cpu.times.") + key, "cpustat", {},
                    {counters_.StringDimension("cpustat_key", key)}},
                   static_cast<double>(values[field]));
  }
}

void SysStatsDecoder::DecodeInterrupts(const PacketContext& packet, const proto::Field& f,
                                       bool soft) {
  int32_t irq = 0;
  uint64_t count = 0;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == pf::sys_stats_interrupt_count::kIrq) irq = x.as_int32();
    if (x.id == pf::sys_stats_interrupt_count::kCount) count = x.int_value;
  }
  const char* type = soft ? "num_softirq" : "num_irq";
  char name[64];
  std::snprintf(name, sizeof(name), "%s (id: %u)", type, static_cast<uint32_t>(irq));
  counters_.Emit(packet,
                 {Scope::kGlobal, 0, name, type, {},
                  {counters_.IntDimension("irq", static_cast<uint32_t>(irq))}},
                 static_cast<double>(count));
}

void SysStatsDecoder::DecodeBuddyInfo(const PacketContext& packet, const proto::Field& f) {
  namespace bi = pf::sys_stats_buddy_info;
  std::string node, zone;
  std::vector<uint64_t> pages;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == bi::kNode) node = std::string(x.as_string());
    if (x.id == bi::kZone) zone = std::string(x.as_string());
    if (x.id == bi::kOrderPages) proto::ForEachVarint(x, [&](uint64_t v) { pages.push_back(v); });
  }
  for (size_t order = 0; order < pages.size(); ++order) {
    // Free chunks of 2^order pages each.
    const uint32_t chunk_kb =
        static_cast<uint32_t>((uint64_t{1} << order) * page_size_ / 1024);
    char size[32];
    std::snprintf(size, sizeof(size), "[%u kB]", chunk_kb);
    counters_.Emit(packet,
                   {Scope::kGlobal, 0, "mem.buddyinfo[" + node + "][" + zone + "]" + size,
                    "buddyinfo", {},
                    {counters_.StringDimension("buddyinfo_node", node),
                     counters_.StringDimension("buddyinfo_zone", zone),
                     counters_.IntDimension("buddyinfo_chunk_size_kb", chunk_kb)}},
                   static_cast<double>(pages[order]));
  }
}

void SysStatsDecoder::DecodeDiskStat(const PacketContext& packet, const proto::Field& f) {
  namespace ds = pf::sys_stats_disk_stat;
  std::string device;
  DiskState now;
  now.valid = true;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    const int64_t v = x.as_int64();
    switch (x.id) {
      case ds::kDeviceName: device = std::string(x.as_string()); break;
      case ds::kReadSectors: now.read_sectors = v; break;
      case ds::kReadTimeMs: now.read_ms = v; break;
      case ds::kWriteSectors: now.write_sectors = v; break;
      case ds::kWriteTimeMs: now.write_ms = v; break;
      case ds::kDiscardSectors: now.discard_sectors = v; break;
      case ds::kDiscardTimeMs: now.discard_ms = v; break;
      case ds::kFlushCount: now.flush_count = v; break;
      case ds::kFlushTimeMs: now.flush_ms = v; break;
      default: break;
    }
  }
  DiskState& prev = disks_[device];
  if (prev.valid) {
    // /proc/diskstats sectors are always 512 bytes.
    constexpr double kSectorsPerMb = 2048.0;
    auto mb = [&](int64_t cur, int64_t old) {
      return static_cast<double>(cur - old) / kSectorsPerMb;
    };
    auto rate = [](double amount, int64_t ms) {
      return ms == 0 ? 0.0 : amount * 1000.0 / static_cast<double>(ms);
    };
    const double read = mb(now.read_sectors, prev.read_sectors);
    const double write = mb(now.write_sectors, prev.write_sectors);
    const double discard = mb(now.discard_sectors, prev.discard_sectors);
    auto emit = [&](std::string_view counter, std::string_view unit, double value) {
      counters_.Emit(packet,
                     {Scope::kGlobal, 0,
                      "diskstat.[" + device + "]." + std::string(counter), "diskstat", unit,
                      {counters_.StringDimension("device_name", device),
                       counters_.StringDimension("counter_name", counter)}},
                     value);
    };
    emit("read_amount", "MB", read);
    emit("read_throughput", "MB/s", rate(read, now.read_ms - prev.read_ms));
    emit("write_amount", "MB", write);
    emit("write_throughput", "MB/s", rate(write, now.write_ms - prev.write_ms));
    emit("discard_amount", "MB", discard);
    emit("discard_throughput", "MB/s", rate(discard, now.discard_ms - prev.discard_ms));
    emit("flush_amount", "count", static_cast<double>(now.flush_count - prev.flush_count));
    emit("flush_time", "ms", static_cast<double>(now.flush_ms - prev.flush_ms));
  }
  prev = now;
}

bool SysStatsDecoder::DecodePsi(const PacketContext& packet, const proto::Field& f) {
  uint64_t resource = 0, total_ns = 0;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == pf::sys_stats_psi_sample::kResource) resource = x.int_value;
    if (x.id == pf::sys_stats_psi_sample::kTotalNs) total_ns = x.int_value;
  }
  const char* key = PsiResourceKey(resource);
  if (!key) {
    ctx_->storage->IncrementStat("psi_unknown_resource");
    return false;
  }
  // The value is the total time stalled on the resource, in ns.
  counters_.Emit(packet,
                 {Scope::kGlobal, 0, std::string("psi.") + key, "psi", {},
                  {counters_.StringDimension("psi_resource", key)}},
                 static_cast<double>(total_ns));
  return true;
}

void SysStatsDecoder::DecodeThermalZone(const PacketContext& packet, const proto::Field& f) {
  std::string type;
  uint64_t temp = 0;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == pf::sys_stats_thermal_zone::kType) type = std::string(x.as_string());
    if (x.id == pf::sys_stats_thermal_zone::kTemp) temp = x.int_value;
  }
  // Named after the zone's type (e.g. x86_pkg_temp), not its sysfs name.
  counters_.Emit(packet,
                 {Scope::kGlobal, 0, type, "thermal_temperature_sys", "C",
                  {counters_.StringDimension("thermal_zone", type)}},
                 static_cast<double>(temp));
}

void SysStatsDecoder::DecodeCpuIdle(const PacketContext& packet, const proto::Field& f) {
  namespace cis = pf::sys_stats_cpu_idle_state;
  namespace cie = pf::sys_stats_cpu_idle_state_entry;
  uint32_t cpu = 0;
  std::vector<proto::Field> entries;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == cis::kCpuId) cpu = x.as_uint32();
    if (x.id == cis::kCpuidleStateEntry) entries.push_back(x);
  }
  for (const proto::Field& e : entries) {
    std::string state;
    uint64_t duration_us = 0;
    proto::Decoder ed(e);
    proto::Field y;
    while (ed.Next(&y)) {
      if (y.id == cie::kState) state = std::string(y.as_string());
      if (y.id == cie::kDurationUs) duration_us = y.int_value;
    }
    counters_.Emit(packet,
                   {Scope::kCpu, cpu, "cpuidle" + std::to_string(cpu) + "." + state,
                    "cpu_idle_state", "us", {counters_.StringDimension("state", state)}},
                   static_cast<double>(duration_us));
  }
}

void SysStatsDecoder::DecodeSlabInfo(const PacketContext& packet, const proto::Field& f) {
  namespace sl = pf::sys_stats_slab_info;
  std::string name;
  uint64_t pages_per_slab = 0, num_slabs = 0;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == sl::kName) name = std::string(x.as_string());
    if (x.id == sl::kPagesPerSlab) pages_per_slab = x.int_value;
    if (x.id == sl::kNumSlabs) num_slabs = x.int_value;
  }
  // trace_processor also attaches pages_per_slab / num_slabs as counter args; counter args are
  // not expressible in a CounterData event yet.
  counters_.Emit(packet,
                 {Scope::kGlobal, 0, "mem.slab." + name, "slabinfo", "bytes",
                  {counters_.StringDimension("slab_name", name)}},
                 static_cast<double>(pages_per_slab) * static_cast<double>(num_slabs) *
                     static_cast<double>(page_size_));
}

}  // namespace tw
