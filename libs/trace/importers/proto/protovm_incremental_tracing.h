#pragma once
// Incremental tracing through ProtoVM: a producer writes patches (e.g. SurfaceFlinger
// transactions) instead of full snapshots, and the trace carries the programs that turn them
// back into snapshots. A trace_provenance packet says which sequences each producer wrote; a
// protovms packet registers VM instances (program, initial state, memory limit) for producers.
// Each later packet on such a sequence is offered to that sequence's VMs in registration order;
// the first that applies it successfully replaces the packet by its new incremental state (with
// the patch's trusted uid, pid, sequence and machine), which is then imported like any packet.
// Packets no VM applies go on unchanged; aborted patches (malformed programs included) count
// protovm_abort, programs for producers the provenance never named count
// protovm_registration_error.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/protovm/vm.h"

namespace tw {

class ProtoVmIncrementalTracing {
 public:
  explicit ProtoVmIncrementalTracing(ImportContext* ctx) : ctx_(ctx) {}

  // TracePacket.trace_provenance: the sequences of each producer.
  void OnTraceProvenance(const proto::Field& field);
  // TracePacket.protovms: VM instances for producers named by the provenance so far.
  void OnProtoVms(const proto::Field& field);

  // Whether any VM processes packets of `sequence_id` (a cheap check before TryApplyPatch).
  bool HasVms(uint32_t sequence_id) const { return vms_by_sequence_.contains(sequence_id); }
  // The packet `patch` (on `sequence_id`) stands for, if one of the sequence's VMs applied it.
  std::optional<std::string> TryApplyPatch(std::string_view patch, uint32_t sequence_id);

 private:
  ImportContext* ctx_;
  absl::flat_hash_map<int32_t, std::vector<uint32_t>> sequences_by_producer_;
  absl::flat_hash_map<uint32_t, std::vector<protovm::Vm*>> vms_by_sequence_;
  std::vector<std::unique_ptr<protovm::Vm>> vms_;
};

}  // namespace tw
