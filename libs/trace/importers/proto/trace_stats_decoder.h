#pragma once
// trace_stats packets (the tracing service's own bookkeeping, written at the end of a trace)
// become trace_processor's stats: traced_* totals, traced_buf_* per buffer, filter_* and the
// per-buffer packet-loss breakdown attributed through writer_stats.

#include <cstdint>
#include <map>

#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/sequence_loss_tracker.h"

namespace tw {

class TraceStatsDecoder {
 public:
  TraceStatsDecoder(ImportContext* ctx, const SequenceLossTracker* loss)
      : ctx_(ctx), loss_(loss) {}

  void Decode(const proto::Field& field);

  // bytes_overwritten of each buffer in the last trace_stats (for the long-trace-mode check).
  const std::map<int64_t, int64_t>& bytes_overwritten() const { return bytes_overwritten_; }

 private:
  void DecodeBuffer(int64_t index, const proto::Field& f);
  void DecodeFilterStats(const proto::Field& f);
  void AttributeWriterLoss(const std::vector<proto::Field>& writers);

  ImportContext* ctx_;
  const SequenceLossTracker* loss_;
  std::map<int64_t, int64_t> bytes_overwritten_;
};

}  // namespace tw
