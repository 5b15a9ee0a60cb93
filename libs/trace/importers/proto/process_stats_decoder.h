#pragma once
// process_stats packets (periodic /proc/<pid>/status, smaps_rollup and stat scrapes) become
// per-process counters named as trace_processor names them: mem.virt, mem.rss, mem.rss.anon,
// ..., mem.smaps.*, oom_score_adj, runtime.user_ns / runtime.kernel_ns, chrome.*. Threads listed
// under a process are associated with it.

#include "libs/trace/importers/proto/counter_emitter.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class ProcessStatsDecoder {
 public:
  explicit ProcessStatsDecoder(ImportContext* ctx) : ctx_(ctx), counters_(ctx) {}

  void Decode(const PacketContext& packet, const proto::Field& field);

 private:
  void DecodeProcess(const PacketContext& packet, const proto::Field& process,
                     ProcessTreeData* threads);

  ImportContext* ctx_;
  CounterEmitter counters_;
};

}  // namespace tw
