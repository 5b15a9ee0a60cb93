#pragma once
// Decodes FtraceEventBundles: per-event ftrace (sched, task, cpu frequency/idle, print/atrace,
// blocked reasons, and any other event generically into ftrace_event with its fields as args)
// and the compact_sched encoding (delta-encoded timestamps, interned comms).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/short_string_cache.h"

namespace tw {

class FtraceDecoder {
 public:
  explicit FtraceDecoder(ImportContext* ctx);

  void DecodeBundle(const PacketContext& packet, const proto::Field& bundle);

  // Events decoded so far per ftrace event name (for `tracewise info`).
  const std::vector<std::pair<std::string_view, int64_t>> EventCounts() const;

 private:
  struct BundleInfo {
    uint32_t cpu = 0;
    int64_t clock_offset = 0;  // added to every ftrace timestamp to reach the trace clock
    const SequenceState* sequence = nullptr;  // the packet's (interned kernel symbols)
  };
  void DecodeEvent(const BundleInfo& b, const proto::Field& event);
  void DecodeCompactSched(const BundleInfo& b, const proto::Field& compact);
  void PushRaw(const BundleInfo& b, int64_t ts, int32_t pid, uint32_t flags, uint32_t event_id,
               const proto::Field& payload);
  // An event that carries the time of what it measured: its row at `ts`, its tracker copy at
  // that time.
  void PushSampledAt(const BundleInfo& b, int64_t ts, int32_t pid, uint32_t flags,
                     uint32_t event_id, const proto::Field& payload);
  // kgsl_adreno_cmdbatch_retired: its row at `ts`; its tracker copy at the batch's GPU start,
  // which the kgsl_adreno_cmdbatch_sync event of the same batch (matched by `timestamp`) ties
  // to the trace clock — now if that sync came first, else when it comes.
  void PushAdrenoRetired(const BundleInfo& b, int64_t ts, int32_t pid, uint32_t flags,
                         uint32_t event_id, const proto::Field& payload);
  void OnAdrenoSync(int64_t ts, const proto::Field& payload);
  FtraceRawData MakeRaw(const BundleInfo& b, int32_t pid, uint32_t flags, uint32_t event_id,
                        const proto::Field& payload);
  void PushRawData(int64_t ts, uint32_t cpu, int32_t pid, FtraceRawData raw);
  void PushAtrace(int64_t ts, uint32_t cpu, int32_t pid, std::string_view text);
  void PushAtraceKernelMark(int64_t ts, uint32_t cpu, int32_t pid, const proto::Field& payload,
                            uint32_t event_id);
  std::vector<Arg> ArgsFor(const BundleInfo& b, uint32_t event_id, const proto::Field& payload,
                           StringId* name);
  // The name of the kernel function at address key `iid`, from the sequence's interned
  // kernel_symbols (traced's symbolizer); nullopt when the trace does not have it.
  bool HasKernelSymbol(const BundleInfo& b, uint64_t iid) const;
  // interned_data_tokenizer_errors as trace_processor counts them for this event's
  // kernel-function fields (see the .cc).
  void CountKernelSymbolMisses(const BundleInfo& b, uint32_t event_id, const proto::Field& payload);
  std::optional<StringId> KernelSymbol(const BundleInfo& b, uint64_t iid);
  void Count(uint32_t event_id);

  ImportContext* ctx_;
  // Task names (comm fields) of the scheduling events, interned through a cache: they repeat
  // on nearly every event.
  StringId InternComm(std::string_view comm) {
    return comms_.Get(comm, [this](std::string_view s) { return ctx_->Intern(s); });
  }
  ShortStringCache comms_;
  // (machine, cpu) pairs whose first bundle was seen: it tells from when the cpu's data is
  // complete (ftrace_latest_data_start_ns).
  absl::flat_hash_set<uint64_t> cpus_seen_;
  // Adreno batches: each sync point's (trace time, GPU ticks), and retired batches still
  // waiting for theirs (the tracker copy, its cpu and the batch's start ticks), by `timestamp`.
  struct AdrenoSync {
    int64_t trace_ts;
    uint64_t ticks;
  };
  struct PendingRetired {
    uint32_t cpu;
    int32_t pid;
    uint64_t start_ticks;
    FtraceRawData copy;
  };
  absl::flat_hash_map<uint64_t, AdrenoSync> adreno_syncs_;
  absl::flat_hash_map<uint64_t, PendingRetired> adreno_pending_;
  std::vector<int64_t> counts_;  // by event id
  std::vector<StringId> event_names_;  // by event id, interned lazily
  bool print_names_interned_ = false;  // "print", "ip", "buf" (see the kPrint case)
};

}  // namespace tw
