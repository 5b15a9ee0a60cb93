#include "libs/trace/importers/proto/protovm_incremental_tracing.h"

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

// TraceProvenance (protos/perfetto/trace/perfetto/trace_provenance.proto): buffers (2) of
// sequences (1), each with its id (1) and producer_id (2).
constexpr uint32_t kProvenanceBuffers = 2, kBufferSequences = 1, kSequenceId = 1,
                   kSequenceProducerId = 2;
// TracePacket.ProtoVms (trace_packet.proto): instance (1), each with program (1), state (2),
// memory_limit_kb (3) and producer_id (4, repeated).
constexpr uint32_t kProtoVmsInstance = 1, kInstanceProgram = 1, kInstanceState = 2,
                   kInstanceMemoryLimitKb = 3, kInstanceProducerId = 4;

}  // namespace

void ProtoVmIncrementalTracing::OnTraceProvenance(const proto::Field& field) {
  proto::Decoder d(field);
  proto::Field buffer;
  while (d.Next(&buffer)) {
    if (buffer.id != kProvenanceBuffers || buffer.type != proto::kLengthDelimited) continue;
    proto::Decoder bd(buffer);
    proto::Field sequence;
    while (bd.Next(&sequence)) {
      if (sequence.id != kBufferSequences || sequence.type != proto::kLengthDelimited) continue;
      uint32_t id = 0;
      int32_t producer = 0;
      proto::Decoder sd(sequence);
      proto::Field f;
      while (sd.Next(&f)) {
        if (f.id == kSequenceId) id = f.as_uint32();
        if (f.id == kSequenceProducerId) producer = f.as_int32();
      }
      sequences_by_producer_[producer].push_back(id);
    }
  }
  if (d.error()) ctx_->storage->IncrementStat("proto_decode_errors");
}

void ProtoVmIncrementalTracing::OnProtoVms(const proto::Field& field) {
  proto::Decoder d(field);
  proto::Field instance;
  while (d.Next(&instance)) {
    if (instance.id != kProtoVmsInstance || instance.type != proto::kLengthDelimited) continue;
    std::string_view program_bytes, state;
    uint64_t memory_limit_kb = 0;
    std::vector<int32_t> producers;
    proto::Decoder id(instance);
    proto::Field f;
    while (id.Next(&f)) {
      switch (f.id) {
        case kInstanceProgram: program_bytes = f.as_string(); break;
        case kInstanceState: state = f.as_string(); break;
        case kInstanceMemoryLimitKb: memory_limit_kb = f.as_uint32(); break;
        case kInstanceProducerId:
          proto::ForEachVarint(f, [&](uint64_t v) { producers.push_back(static_cast<int32_t>(v)); });
          break;
        default: break;
      }
    }
    if (id.error()) {
      ctx_->storage->IncrementStat("protovm_registration_error");
      continue;
    }
    // A malformed program still registers: its patches abort (protovm_abort) and go on as they
    // are, as they would if the VM found the program unrunnable.
    vms_.push_back(std::make_unique<protovm::Vm>(protovm::DecodeProgram(program_bytes),
                                                 memory_limit_kb * 1024, state));
    protovm::Vm* vm = vms_.back().get();
    for (int32_t producer : producers) {
      auto it = sequences_by_producer_.find(producer);
      if (it == sequences_by_producer_.end()) {
        // The provenance never named this producer: the VM cannot know its sequences.
        ctx_->storage->IncrementStat("protovm_registration_error");
        continue;
      }
      for (uint32_t sequence : it->second) vms_by_sequence_[sequence].push_back(vm);
    }
  }
  if (d.error()) ctx_->storage->IncrementStat("proto_decode_errors");
}

std::optional<std::string> ProtoVmIncrementalTracing::TryApplyPatch(std::string_view patch,
                                                                    uint32_t sequence_id) {
  auto it = vms_by_sequence_.find(sequence_id);
  if (it == vms_by_sequence_.end()) return std::nullopt;
  for (protovm::Vm* vm : it->second) {
    const protovm::VmStatus status = vm->ApplyPatch(patch);
    if (status.ok()) {
      // The new state is the packet; who wrote it is the patch's writer.
      namespace tp = pf::trace_packet;
      int32_t uid = 0, pid = 0;
      std::optional<uint32_t> machine;
      proto::Decoder d(patch);
      proto::Field f;
      while (d.Next(&f)) {
        if (f.id == tp::kTrustedUid) uid = f.as_int32();
        if (f.id == tp::kTrustedPid) pid = f.as_int32();
        if (f.id == tp::kMachineId) machine = f.as_uint32();
      }
      std::string packet = vm->SerializeState();
      proto::Writer trusted;
      trusted.Int(tp::kTrustedUid, uid);
      trusted.Int(tp::kTrustedPid, pid);
      trusted.Varint(tp::kTrustedPacketSequenceId, sequence_id);
      if (machine) trusted.Varint(tp::kMachineId, *machine);
      packet += trusted.data();
      return packet;
    }
    if (status.is_abort()) ctx_->storage->IncrementStat("protovm_abort");
  }
  return std::nullopt;
}

}  // namespace tw
