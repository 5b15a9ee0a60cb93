#pragma once
// Decodes perf_sample packets (traced_perf: a sample of a timebase counter per cpu, with the
// follower counters read at the same moment and, if configured, the sampled thread's unwound
// callstack). The sequence's TracePacketDefaults.perf_sample_defaults say which counters the
// stream samples; the callstack comes from the sequence's interned callstacks, frames and
// mappings. Samples the producer could not complete are counted in stats (perf_samples_skipped,
// perf_samples_skipped_dataloss); kernel ring-buffer losses and producer guardrail stops go to
// the tracker as notes, not samples.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class PerfSampleDecoder {
 public:
  explicit PerfSampleDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void Decode(const PacketContext& packet, const proto::Field& field);

 private:
  // The stream the sequence's current defaults describe (decoded once per change of defaults).
  std::shared_ptr<const PerfSampleData::Stream> StreamFor(const PacketContext& packet);
  void ResolveCallstack(uint32_t sequence_id, const SequenceState& seq, uint64_t iid,
                        PerfSampleData* sample);

  struct CachedStream {
    std::string defaults;  // the defaults it was decoded from ("" when there were none)
    std::shared_ptr<const PerfSampleData::Stream> stream;
  };
  // A sequence's resolved callstacks, valid for one generation of its interned data.
  struct Callstacks {
    uint32_t generation = 0;
    absl::flat_hash_map<uint64_t, std::shared_ptr<const std::vector<CallstackFrame>>> by_iid;
  };
  ImportContext* ctx_;
  absl::flat_hash_map<uint32_t, CachedStream> streams_;   // by sequence id
  absl::flat_hash_map<uint32_t, Callstacks> callstacks_;  // by sequence id
};

}  // namespace tw
