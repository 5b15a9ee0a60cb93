#include "libs/trace/importers/proto/sequence_loss_tracker.h"

namespace tw {

void SequenceLossTracker::OnPacket(bool has_sequence_id, uint32_t sequence_id,
                                   uint32_t previous_packet_dropped) {
  auto [it, inserted] = sequences_.try_emplace(sequence_id);
  if (!has_sequence_id || inserted || previous_packet_dropped == 0) return;
  Counts& c = it->second;
  ++c.packets_lost;
  for (int bit = 0; bit < 32; ++bit) {
    if (previous_packet_dropped & (uint32_t{1} << bit)) ++c.reasons[bit];
  }
}

void SequenceLossTracker::OnNeedsIncrementalState(uint32_t sequence_id, bool skipped) {
  Counts& c = sequences_[sequence_id];
  ++c.needs_incremental_state;
  if (skipped) ++c.skipped_incremental_state;
}

}  // namespace tw
