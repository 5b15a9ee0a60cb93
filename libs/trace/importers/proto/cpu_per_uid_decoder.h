#pragma once
// Decodes cpu_per_uid_data packets (Android's per-uid cpu time, by cpu cluster): the first
// value of a (uid, cluster) on a sequence is its total since boot, later ones are increments.
// Emits the cumulative time of each uid and cluster (uids of the shared and isolated ranges
// grouped per range) and the totals of system and app uids, as counters that only get a sample
// when the value changes (with the last unchanged sample kept before a change, so steps stay
// where they were). After each packet, the cpu time each (uid, cluster) accrued so far.

#include <cstdint>
#include <map>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/counter_emitter.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/sparse_counter.h"

namespace tw {

class CpuPerUidDecoder {
 public:
  explicit CpuPerUidDecoder(ImportContext* ctx) : ctx_(ctx), counters_(ctx), sparse_(&counters_) {}

  void Decode(const PacketContext& packet, const proto::Field& field);


 private:
  struct SequenceValues {
    uint32_t generation = 0;
    uint32_t cluster_count = 0;
    absl::flat_hash_map<uint64_t, uint64_t> last_values;  // (uid, cluster) → value
  };
  // The cpu time each (uid, cluster) accrued so far, for android_cpu_per_uid_track.
  void PushTotals(const PacketContext& packet);

  ImportContext* ctx_;
  CounterEmitter counters_;
  absl::flat_hash_map<uint32_t, SequenceValues> sequences_;
  absl::flat_hash_map<uint64_t, uint64_t> last_value_;   // across sequences
  std::map<uint64_t, uint64_t> cumulative_;               // (grouped uid, cluster) → delta ms
  std::map<uint32_t, uint64_t> system_totals_, app_totals_;  // by cluster
  SparseCounters sparse_;                                 // by track key
};

}  // namespace tw
