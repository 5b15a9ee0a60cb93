#include "tools/tracegen/polled_stats.h"

#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw::tracegen {

using proto::Writer;

namespace {
// Each data source writes on its own packet sequence.
constexpr uint32_t kSeqProcessStats = 32;
constexpr uint32_t kSeqSysStats = 33;

void WritePacket(synth::TraceFile* file, int64_t ts, uint32_t field, const Writer& body,
                 uint32_t sequence) {
  Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
  packet.Message(field, body);
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, sequence);
  file->Write(packet);
}
}  // namespace

int64_t WriteProcessStats(synth::TraceFile* file, const std::vector<ProcessMemoryModel>& processes,
                          int64_t from, int64_t to, int64_t period) {
  namespace psp = pf::process_stats_process;
  int64_t polls = 0;
  for (int64_t ts = from; ts < to; ts += period, ++polls) {
    Writer stats;
    for (const ProcessMemoryModel& p : processes) {
      if (ts < p.exists_from || ts >= p.exists_until) continue;
      Writer w;
      w.Int(psp::kPid, p.pid);
      w.Varint(psp::kVmRssKb, static_cast<uint64_t>(p.RssKb(ts)));
      w.Varint(psp::kRssAnonKb, static_cast<uint64_t>(p.anon_kb(ts)));
      w.Varint(psp::kRssFileKb, static_cast<uint64_t>(p.file_kb));
      w.Varint(psp::kRssShmemKb, static_cast<uint64_t>(p.shmem_kb));
      w.Varint(psp::kVmSwapKb, static_cast<uint64_t>(p.swap_kb));
      stats.Message(pf::process_stats::kProcesses, w);
    }
    WritePacket(file, ts, pf::trace_packet::kProcessStats, stats, kSeqProcessStats);
  }
  return polls;
}

int64_t WriteThermalZones(synth::TraceFile* file, const std::vector<ThermalZoneModel>& zones,
                          int64_t from, int64_t to, int64_t period) {
  namespace tz = pf::sys_stats_thermal_zone;
  int64_t polls = 0;
  for (int64_t ts = from; ts < to; ts += period, ++polls) {
    Writer stats;
    for (const ThermalZoneModel& z : zones) {
      Writer w;
      w.String(tz::kName, z.name);
      w.Varint(tz::kTemp, static_cast<uint64_t>(z.celsius(ts)));
      w.String(tz::kType, z.type);
      stats.Message(pf::sys_stats::kThermalZone, w);
    }
    WritePacket(file, ts, pf::trace_packet::kSysStats, stats, kSeqSysStats);
  }
  return polls;
}

}  // namespace tw::tracegen
