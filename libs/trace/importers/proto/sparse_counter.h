#pragma once
// Counters sampled by polling (per-uid cpu time, kernel wakelock totals) repeat their value
// most of the time. As trace_processor's sparse counter tracker does, only the samples needed
// to draw the same steps are kept: a sample when the value changes, and before it the last
// sample of the unchanged run (so the step stays where it happened). A run still unchanged
// when the trace ends is not closed with a last sample.

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/counter_emitter.h"

namespace tw {

class SparseCounters {
 public:
  explicit SparseCounters(CounterEmitter* emitter) : emitter_(emitter) {}

  // A poll of the counter `key` (one key per track) at the packet's time.
  void Push(const PacketContext& packet, uint64_t key, const CounterEmitter::Track& track,
            double value);

 private:
  struct Last {
    double value = 0;
    int64_t ts = 0;
    bool written = false;
  };
  CounterEmitter* emitter_;
  absl::flat_hash_map<uint64_t, Last> last_;
};

}  // namespace tw
