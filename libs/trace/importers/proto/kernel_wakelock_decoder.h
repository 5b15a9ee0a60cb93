#pragma once
// Decodes kernel_wakelock_data packets (the android.kernel_wakelocks data source): each packet
// names the wakelocks it sees for the first time (id, name, kernel / native type) and lists
// (id, time held) pairs, the held time an increment in ms since the wakelock's previous report
// on the sequence (its total the first time). After each packet every wakelock the sequence
// knows gets a sample of its total held time, in ns, on the global counter track named after
// it (type android_kernel_wakelock, dimensions wakelock_name and wakelock_type), kept sparse as
// trace_processor keeps it. The data source's error flags become stats.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/counter_emitter.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/sparse_counter.h"

namespace tw {

class KernelWakelockDecoder {
 public:
  explicit KernelWakelockDecoder(ImportContext* ctx)
      : ctx_(ctx), counters_(ctx), sparse_(&counters_) {}

  void Decode(const PacketContext& packet, const proto::Field& field);

 private:
  struct Wakelock {
    std::string name;
    std::string type;  // "kernel", "native" or "unknown"
  };
  struct Held {
    std::string type;
    uint64_t total_ms = 0;
  };
  // What one sequence knows, until it clears its incremental state.
  struct SequenceWakelocks {
    uint32_t generation = 0;
    absl::flat_hash_map<uint32_t, Wakelock> by_id;
    // By wakelock name, in the order first reported (two ids may share a name).
    std::vector<std::string> names;
    absl::flat_hash_map<std::string, Held> held;
  };
  uint64_t TrackKey(const std::string& name, const std::string& type);

  ImportContext* ctx_;
  CounterEmitter counters_;
  SparseCounters sparse_;
  absl::flat_hash_map<uint32_t, SequenceWakelocks> sequences_;
  absl::flat_hash_map<std::string, uint64_t> track_keys_;  // name + type → sparse key
};

}  // namespace tw
