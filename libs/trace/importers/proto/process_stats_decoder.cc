#include "libs/trace/importers/proto/process_stats_decoder.h"

#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

namespace psp = pf::process_stats_process;

// /proc/<pid>/status memory fields (kB) → the key trace_processor appends to "mem.".
const char* MemoryKey(uint32_t field) {
  switch (field) {
    case psp::kVmSizeKb: return "virt";
    case psp::kVmRssKb: return "rss";
    case psp::kRssAnonKb: return "rss.anon";
    case psp::kRssFileKb: return "rss.file";
    case psp::kRssShmemKb: return "rss.shmem";
    case psp::kVmSwapKb: return "swap";
    case psp::kVmLockedKb: return "locked";
    case psp::kVmHwmKb: return "rss.watermark";
    case psp::kDmabufRssKb: return "dmabuf_rss";
    default: return nullptr;
  }
}

// smaps_rollup fields (kB) → the key trace_processor appends to "mem.smaps.".
const char* SmapsKey(uint32_t field) {
  switch (field) {
    case psp::kSmrRssKb: return "rss";
    case psp::kSmrPssKb: return "pss";
    case psp::kSmrPssAnonKb: return "pss.anon";
    case psp::kSmrPssFileKb: return "pss.file";
    case psp::kSmrPssShmemKb: return "pss.smem";
    case psp::kSmrSwapPssKb: return "swap.pss";
    default: return nullptr;
  }
}

}  // namespace

void ProcessStatsDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  ProcessTreeData threads;
  proto::Decoder d(field);
  proto::Field p;
  while (d.Next(&p)) {
    if (p.id == pf::process_stats::kProcesses && p.type == proto::kLengthDelimited) {
      DecodeProcess(packet, p, &threads);
    }
  }
  if (d.error()) ctx_->storage->IncrementStat("proto_decode_errors");
  // Thread → process associations travel as a process tree with threads only, which the
  // process tracker applies in timestamp order like any other.
  if (!threads.threads.empty()) {
    ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
               Event::WithPayload(packet.ts, EventType::kProcessTree, std::move(threads)));
  }
}

void ProcessStatsDecoder::DecodeProcess(const PacketContext& packet, const proto::Field& process,
                                        ProcessTreeData* threads) {
  // The pid may follow the values it qualifies, so find it first.
  int32_t pid = 0;
  {
    proto::Decoder d(process);
    proto::Field f;
    while (d.Next(&f)) {
      if (f.id == psp::kPid) pid = f.as_int32();
    }
  }
  using Scope = CounterData::Scope;
  proto::Decoder d(process);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case psp::kPid:
        continue;
      case psp::kThreads: {
        proto::Decoder td(f);
        proto::Field t;
        ProcessTreeData::Thread thread{0, pid, std::nullopt};
        while (td.Next(&t)) {
          if (t.id == pf::process_stats_thread::kTid) thread.tid = t.as_int32();
        }
        threads->threads.push_back(std::move(thread));
        continue;
      }
      case psp::kFds:
        // Open file descriptors would fill trace_processor's filedescriptor table, which we do
        // not have yet.
        continue;
      case psp::kIsPeakRssResettable:
        // A process arg in trace_processor; process args are not reachable from an importer.
        continue;
      case psp::kChromePrivateFootprintKb:
        counters_.Emit(packet,
                       {Scope::kProcess, pid, "chrome.private_footprint_kb", "chrome_process_stats",
                        {}, {counters_.StringDimension("key", "private_footprint_kb")}},
                       static_cast<double>(f.as_int64() * 1024));
        continue;
      case psp::kChromePeakResidentSetKb:
        counters_.Emit(packet,
                       {Scope::kProcess, pid, "chrome.peak_resident_set_kb",
                        "chrome_process_stats", {},
                        {counters_.StringDimension("key", "peak_resident_set_kb")}},
                       static_cast<double>(f.as_int64() * 1024));
        // trace_processor's generic parser also counts this field as unknown (it skips the
        // private footprint twice instead); keep the same stat.
        ctx_->storage->IncrementStat("proc_stat_unknown_counters");
        continue;
      case psp::kOomScoreAdj:
        counters_.Emit(packet, {Scope::kProcess, pid, "oom_score_adj", "oom_score_adj"},
                       static_cast<double>(f.as_int64()));
        continue;
      case psp::kRuntimeUserMode:
      case psp::kRuntimeKernelMode: {
        const bool user = f.id == psp::kRuntimeUserMode;
        counters_.Emit(packet,
                       {Scope::kProcess, pid, user ? "runtime.user_ns" : "runtime.kernel_ns",
                        "proc_stat_runtime", {},
                        {counters_.StringDimension("proc_stat_runtime_key",
                                                   user ? "user_ns" : "kernel_ns")}},
                       static_cast<double>(f.as_int64()));
        continue;
      }
      default:
        break;
    }
    // Memory values are kB in the trace and bytes in the tables.
    if (const char* key = MemoryKey(f.id)) {
      counters_.Emit(packet,
                     {Scope::kProcess, pid, std::string("mem.") + key, "process_memory", {},
                      {counters_.StringDimension("process_memory_key", key)}},
                     static_cast<double>(f.as_int64() * 1024));
      continue;
    }
    if (const char* key = SmapsKey(f.id)) {
      counters_.Emit(packet,
                     {Scope::kProcess, pid, std::string("mem.smaps.") + key, "smaps", {},
                      {counters_.StringDimension("smaps_key", key)}},
                     static_cast<double>(f.as_int64() * 1024));
      continue;
    }
    ctx_->storage->IncrementStat("proc_stat_unknown_counters");
  }
}

}  // namespace tw
