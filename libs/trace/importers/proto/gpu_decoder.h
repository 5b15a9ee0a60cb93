#pragma once
// Decodes the GPU data sources' packets: gpu_counter_event (counter descriptors, inline or
// interned, and their samples) and gpu_info (the GPUs of the machine). What needs sequence
// state is resolved here (interned descriptors, which descriptors were already seen, stats for
// malformed specs); the tracker creates the tracks and the gpu rows.

#include <cstdint>
#include <tuple>

#include "absl/container/flat_hash_set.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class GpuDecoder {
 public:
  explicit GpuDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void DecodeCounterEvent(const PacketContext& packet, const proto::Field& field);
  void DecodeGpuInfo(const PacketContext& packet, const proto::Field& field);

 private:
  // Reads a GpuCounterDescriptor into `out` (specs and groups). `legacy`: counter ids are
  // global to the trace, so a spec reusing one is rejected.
  void ReadDescriptor(const proto::Field& descriptor, bool legacy, GpuEventData* out);

  ImportContext* ctx_;
  absl::flat_hash_set<uint32_t> legacy_counter_ids_;
  // Interned descriptors already sent, per sequence (re-sent after the sequence clears its
  // incremental state, when its iids may mean something else).
  absl::flat_hash_set<std::tuple<uint32_t, uint32_t, uint64_t>> interned_seen_;
};

}  // namespace tw
