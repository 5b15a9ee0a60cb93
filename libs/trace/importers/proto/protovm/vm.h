#pragma once
// A ProtoVM instance: a program and the incremental state it maintains. A producer that traces
// incrementally writes only patches (what changed); the VM applies each patch to its state by
// running the program with SRC on the patch packet and DST on the state, and the state after a
// successful run is the full packet the patch stands for (e.g. a whole SurfaceFlinger layers
// snapshot from one transaction). Failures never throw: a patch the program does not apply to
// (kError) leaves it alone, one it cannot apply (kAbort) is reported.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libs/trace/importers/proto/protovm/ro_cursor.h"
#include "libs/trace/importers/proto/protovm/rw_proto.h"
#include "libs/trace/importers/proto/protovm/vm_program.h"
#include "libs/trace/importers/proto/protovm/vm_status.h"

namespace tw::protovm {

class Vm {
 public:
  // `initial_state`: a serialized TracePacket the state starts from (may be empty). A program
  // that did not decode (nullopt) aborts every patch, as a VM finds it unrunnable when it runs.
  Vm(std::optional<Program> program, size_t memory_limit_bytes, std::string_view initial_state);

  // Runs the program on `patch` (a serialized TracePacket). Edits made before a failure stay
  // (as in trace_processor); the state is only emitted after kOk.
  VmStatus ApplyPatch(std::string_view patch);

  // The incremental state, serialized as a TracePacket body.
  std::string SerializeState() const;
  size_t memory_used() const { return memory_.used(); }
  // Whether the state is held as decomposed fields (rather than raw bytes or a lone scalar).
  bool state_is_decomposed() const { return state_.kind == RwNode::Kind::kMessage; }

 private:
  struct Cursors {
    RoCursor src;
    RwCursor dst;
    CursorKind selected = CursorKind::kSrc;
    bool create_if_not_exist = false;
    // The DST cursor an enclosing select will restore: deleting it here would leave that
    // select pointing at a deleted node.
    const RwCursor* saved_dst = nullptr;
  };

  VmStatus RunList(const std::vector<Instruction>& list, int depth);
  VmStatus Run(const Instruction& instruction, int depth);
  VmStatus RunSelect(const Instruction& instruction, int depth);
  VmStatus SelectPath(const Instruction& instruction, size_t step, int depth);
  VmStatus EnterField(uint32_t field_id);
  VmStatus EnterFieldAt(uint32_t field_id, uint32_t index);
  VmStatus EnterFieldByKey(uint32_t field_id, uint32_t key_field_id, uint64_t key);
  VmStatus LoadRegister(const Instruction& instruction);
  VmStatus ReadRegister(uint32_t reg, uint64_t* value) const;
  VmStatus Set();

  std::optional<Program> program_;
  VmMemory memory_;
  RwNode state_;
  Cursors cursors_;
  std::array<std::optional<uint64_t>, 32> registers_;
};

}  // namespace tw::protovm
