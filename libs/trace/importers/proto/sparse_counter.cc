#include "libs/trace/importers/proto/sparse_counter.h"

namespace tw {

void SparseCounters::Push(const PacketContext& packet, uint64_t key,
                          const CounterEmitter::Track& track, double value) {
  auto [it, first] = last_.try_emplace(key);
  Last& last = it->second;
  const bool changed = last.value != value;
  if (changed && !first && !last.written) {
    // Close the unchanged run where it ended.
    PacketContext at = packet;
    at.ts = last.ts;
    emitter_->Emit(at, track, last.value);
  }
  last.written = first || changed;
  if (last.written) emitter_->Emit(packet, track, value);
  last.value = value;
  last.ts = packet.ts;
}

}  // namespace tw
