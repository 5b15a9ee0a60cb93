#include "libs/trace/importers/proto/trace_stats_decoder.h"

#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

namespace ts = pf::trace_stats;
namespace bs = pf::trace_stats_buffer_stats;

// TraceStats scalar fields → stat names.
constexpr std::pair<uint32_t, const char*> kTotals[] = {
    {ts::kProducersConnected, "traced_producers_connected"},
    {ts::kProducersSeen, "traced_producers_seen"},
    {ts::kDataSourcesRegistered, "traced_data_sources_registered"},
    {ts::kDataSourcesSeen, "traced_data_sources_seen"},
    {ts::kTracingSessions, "traced_tracing_sessions"},
    {ts::kTotalBuffers, "traced_total_buffers"},
    {ts::kChunksDiscarded, "traced_chunks_discarded"},
    {ts::kPatchesDiscarded, "traced_patches_discarded"},
    {ts::kFlushesRequested, "traced_flushes_requested"},
    {ts::kFlushesSucceeded, "traced_flushes_succeeded"},
    {ts::kFlushesFailed, "traced_flushes_failed"},
};

// TraceStats.BufferStats fields → indexed stat names (index = buffer).
constexpr std::pair<uint32_t, const char*> kBufferStats[] = {
    {bs::kBufferSize, "traced_buf_buffer_size"},
    {bs::kBytesWritten, "traced_buf_bytes_written"},
    {bs::kBytesOverwritten, "traced_buf_bytes_overwritten"},
    {bs::kBytesRead, "traced_buf_bytes_read"},
    {bs::kPaddingBytesWritten, "traced_buf_padding_bytes_written"},
    {bs::kPaddingBytesCleared, "traced_buf_padding_bytes_cleared"},
    {bs::kChunksWritten, "traced_buf_chunks_written"},
    {bs::kChunksRewritten, "traced_buf_chunks_rewritten"},
    {bs::kChunksOverwritten, "traced_buf_chunks_overwritten"},
    {bs::kChunksDiscarded, "traced_buf_chunks_discarded"},
    {bs::kChunksRead, "traced_buf_chunks_read"},
    {bs::kChunksRelocated, "traced_buf_chunks_relocated"},
    {bs::kChunksCommittedOutOfOrder, "traced_buf_chunks_committed_out_of_order"},
    {bs::kWriteWrapCount, "traced_buf_write_wrap_count"},
    {bs::kPatchesSucceeded, "traced_buf_patches_succeeded"},
    {bs::kPatchesFailed, "traced_buf_patches_failed"},
    {bs::kReadaheadsSucceeded, "traced_buf_readaheads_succeeded"},
    {bs::kReadaheadsFailed, "traced_buf_readaheads_failed"},
    {bs::kAbiViolations, "traced_buf_abi_violations"},
    {bs::kTraceWriterPacketLoss, "traced_buf_trace_writer_packet_loss"},
};

// TracePacket.DataLossReason bit → the traced_buf_data_loss_* stat counting it.
constexpr std::pair<uint32_t, const char*> kLossReasons[] = {
    {pf::data_loss_reason::kReadGap, "traced_buf_data_loss_read_gap"},
    {pf::data_loss_reason::kChunkCorrupted, "traced_buf_data_loss_chunk_corrupted"},
    {pf::data_loss_reason::kOrphanContinuation, "traced_buf_data_loss_orphan_continuation"},
    {pf::data_loss_reason::kReassemblyGap, "traced_buf_data_loss_reassembly_gap"},
    {pf::data_loss_reason::kReassemblyBrokenChain,
     "traced_buf_data_loss_reassembly_broken_chain"},
    {pf::data_loss_reason::kOverwrite, "traced_buf_data_loss_overwrite"},
    {pf::data_loss_reason::kWriterAbort, "traced_buf_data_loss_writer_abort"},
    {pf::data_loss_reason::kSmbFull, "traced_buf_data_loss_smb_full"},
};

int BitIndex(uint32_t mask) {
  int i = 0;
  while (i < 32 && !(mask & (uint32_t{1} << i))) ++i;
  return i;
}

}  // namespace

void TraceStatsDecoder::Decode(const proto::Field& field) {
  TraceStorage& s = *ctx_->storage;
  // Every total is set, present or not (absent ones are 0), as trace_processor does.
  int64_t totals[ts::kWriterStats + 1] = {};
  uint32_t final_flush = 0;
  std::vector<proto::Field> buffers, writers;
  std::optional<proto::Field> filter;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case ts::kBufferStats: buffers.push_back(f); break;
      case ts::kWriterStats: writers.push_back(f); break;
      case ts::kFilterStats: filter = f; break;
      case ts::kFinalFlushOutcome: final_flush = f.as_uint32(); break;
      default:
        if (f.type == proto::kVarint && f.id <= ts::kWriterStats) totals[f.id] = f.as_int64();
        break;
    }
  }
  if (d.error()) s.IncrementStat("proto_decode_errors");
  for (const auto& [id, name] : kTotals) s.SetStat(name, totals[id]);
  if (filter) DecodeFilterStats(*filter);
  if (final_flush == pf::trace_stats_final_flush_outcome::kSucceeded) {
    s.IncrementStat("traced_final_flush_succeeded");
  } else if (final_flush == pf::trace_stats_final_flush_outcome::kFailed) {
    s.IncrementStat("traced_final_flush_failed");
  }
  for (size_t i = 0; i < buffers.size(); ++i) DecodeBuffer(static_cast<int64_t>(i), buffers[i]);
  AttributeWriterLoss(writers);
}

void TraceStatsDecoder::DecodeBuffer(int64_t index, const proto::Field& f) {
  int64_t values[bs::kChunksRelocated + 1] = {};
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.type == proto::kVarint && x.id <= bs::kChunksRelocated) values[x.id] = x.as_int64();
  }
  for (const auto& [id, name] : kBufferStats) {
    ctx_->storage->SetIndexedStat(name, index, values[id]);
  }
  bytes_overwritten_[index] = values[bs::kBytesOverwritten];
}

void TraceStatsDecoder::DecodeFilterStats(const proto::Field& f) {
  namespace fs = pf::trace_stats_filter_stats;
  TraceStorage& s = *ctx_->storage;
  int64_t values[fs::kTimeTakenNs + 1] = {};
  int64_t buffer = 0;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == fs::kBytesDiscardedPerBuffer) {
      proto::ForEachVarint(x, [&](uint64_t v) {
        s.SetIndexedStat("traced_buf_bytes_filtered_out", buffer++, static_cast<int64_t>(v));
      });
    } else if (x.type == proto::kVarint && x.id <= fs::kTimeTakenNs) {
      values[x.id] = x.as_int64();
    }
  }
  s.SetStat("filter_errors", values[fs::kErrors]);
  s.SetStat("filter_input_bytes", values[fs::kInputBytes]);
  s.SetStat("filter_input_packets", values[fs::kInputPackets]);
  s.SetStat("filter_output_bytes", values[fs::kOutputBytes]);
  s.SetStat("filter_time_taken_ns", values[fs::kTimeTakenNs]);
}

void TraceStatsDecoder::AttributeWriterLoss(const std::vector<proto::Field>& writers) {
  namespace ws = pf::trace_stats_writer_stats;
  struct BufferLoss {
    int64_t packet_loss = 0;
    int64_t sequences_all_dropped = 0;
    int64_t reasons[32] = {};
  };
  std::map<int64_t, BufferLoss> per_buffer;
  for (const proto::Field& w : writers) {
    uint32_t sequence = 0;
    int32_t buffer = 0;
    proto::Decoder d(w);
    proto::Field x;
    while (d.Next(&x)) {
      if (x.id == ws::kSequenceId) sequence = static_cast<uint32_t>(x.int_value);
      if (x.id == ws::kBuffer) buffer = x.as_int32();
    }
    // Only sequences that had packets in this trace are attributed.
    const SequenceLossTracker::Counts* c = loss_->Find(sequence);
    if (!c) continue;
    BufferLoss& b = per_buffer[buffer];
    b.packet_loss += c->packets_lost;
    // A sequence lost entirely: every packet that needed incremental state was skipped.
    b.sequences_all_dropped +=
        c->skipped_incremental_state > 0 &&
        c->skipped_incremental_state == c->needs_incremental_state;
    for (int bit = 0; bit < 32; ++bit) b.reasons[bit] += c->reasons[bit];
  }
  TraceStorage& s = *ctx_->storage;
  for (const auto& [buffer, b] : per_buffer) {
    s.SetIndexedStat("traced_buf_sequence_packet_loss", buffer, b.packet_loss);
    s.SetIndexedStat("traced_buf_incremental_sequences_dropped", buffer,
                     b.sequences_all_dropped);
    for (const auto& [mask, name] : kLossReasons) {
      s.SetIndexedStat(name, buffer, b.reasons[BitIndex(mask)]);
    }
  }
}

}  // namespace tw
