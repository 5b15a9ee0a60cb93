#pragma once
// Counts, per packet sequence, the packet loss writers reported (previous_packet_dropped and its
// data-loss reason bits) and the packets skipped for lack of incremental state. trace_stats'
// writer_stats then attribute those counts to buffers (traced_buf_sequence_packet_loss,
// traced_buf_incremental_sequences_dropped, traced_buf_data_loss_*), as trace_processor does.
// The importer reports every packet header here; the trace_stats decoder reads the counts.

#include <cstdint>

#include "absl/container/flat_hash_map.h"

namespace tw {

class SequenceLossTracker {
 public:
  struct Counts {
    uint32_t packets_lost = 0;  // packets with previous_packet_dropped != 0 (not the first)
    uint32_t needs_incremental_state = 0;  // packets flagged SEQ_NEEDS_INCREMENTAL_STATE
    uint32_t skipped_incremental_state = 0;  // ... dropped because the state was invalid
    // DataLossReason bits seen, one counter per bit (bit i of previous_packet_dropped).
    uint32_t reasons[32] = {};
  };

  // Every TracePacket: its trusted_packet_sequence_id (0 if absent) and previous_packet_dropped
  // (0 if absent). Loss on the first packet of a sequence is not counted: nothing before it
  // could have been lost from this trace's point of view.
  void OnPacket(bool has_sequence_id, uint32_t sequence_id, uint32_t previous_packet_dropped);
  // A packet flagged SEQ_NEEDS_INCREMENTAL_STATE; `skipped` if it was dropped for it.
  void OnNeedsIncrementalState(uint32_t sequence_id, bool skipped);

  const Counts* Find(uint32_t sequence_id) const {
    auto it = sequences_.find(sequence_id);
    return it == sequences_.end() ? nullptr : &it->second;
  }

 private:
  absl::flat_hash_map<uint32_t, Counts> sequences_;
};

}  // namespace tw
