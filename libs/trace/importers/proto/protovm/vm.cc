#include "libs/trace/importers/proto/protovm/vm.h"

#include <utility>
#include <vector>

namespace tw::protovm {
namespace {

// Nesting of selects and instructions a program may reach while running; deeper programs
// abort instead of exhausting the stack.
constexpr int kMaxRunDepth = 256;

}  // namespace

Vm::Vm(std::optional<Program> program, size_t memory_limit_bytes, std::string_view initial_state)
    : program_(std::move(program)), memory_(memory_limit_bytes) {
  if (!initial_state.empty()) {
    // A state larger than the limit starts empty: every patch will then abort or rebuild it.
    RwCursor root(&state_, &memory_);
    (void)root.SetBytes(initial_state);
  }
}

std::string Vm::SerializeState() const {
  std::string out;
  SerializeMessageBody(state_, &out);
  return out;
}

VmStatus Vm::ApplyPatch(std::string_view patch) {
  if (!program_) return VmStatus::Abort("the program is malformed");
  cursors_ = Cursors{};
  cursors_.src = RoCursor(patch);
  cursors_.dst = RwCursor(&state_, &memory_);
  return RunList(program_->instructions, 0);
}

VmStatus Vm::RunList(const std::vector<Instruction>& list, int depth) {
  for (const Instruction& instruction : list) {
    VmStatus s = Run(instruction, depth);
    if (s.is_abort()) return s;
    if (s.is_error()) {
      switch (instruction.abort_level.value_or(AbortLevel::kSkipInstructionAndBreak)) {
        case AbortLevel::kSkipInstruction: break;
        case AbortLevel::kSkipInstructionAndBreak: return s;
        case AbortLevel::kAbort:
          return VmStatus::Abort("an instruction whose abort level is 'abort' failed");
      }
    }
  }
  return VmStatus::Ok();
}

VmStatus Vm::Run(const Instruction& instruction, int depth) {
  if (depth > kMaxRunDepth) return VmStatus::Abort("program nests too deeply");
  VmStatus s;
  switch (instruction.op) {
    case Instruction::Op::kSelect:
      // A select runs its nested instructions itself, once per position it reaches.
      return RunSelect(instruction, depth);
    case Instruction::Op::kRegLoad: s = LoadRegister(instruction); break;
    case Instruction::Op::kDel: {
      bool root = false;
      s = cursors_.dst.IsRoot(&root);
      if (!s.ok()) return s;
      if (cursors_.saved_dst && cursors_.dst == *cursors_.saved_dst && !root) {
        return VmStatus::Abort("del would delete the node an enclosing select returns to");
      }
      s = cursors_.dst.Delete();
      break;
    }
    case Instruction::Op::kMerge: {
      std::string_view bytes;
      if (!cursors_.src.IsBytes()) return VmStatus::Abort("merge from a scalar");
      s = cursors_.src.GetBytes(&bytes);
      if (s.ok()) {
        s = cursors_.dst.Merge(bytes, instruction.skip_submessages, instruction.del_if_src_empty);
      }
      break;
    }
    case Instruction::Op::kSet: s = Set(); break;
    case Instruction::Op::kNone: return VmStatus::Abort("unsupported instruction");
  }
  if (!s.ok()) return s;
  return RunList(instruction.nested, depth + 1);
}

VmStatus Vm::RunSelect(const Instruction& instruction, int depth) {
  const Cursors saved = cursors_;
  cursors_.saved_dst = &saved.dst;
  cursors_.selected = instruction.cursor;
  cursors_.create_if_not_exist = instruction.create_if_not_exist;
  if (cursors_.selected == CursorKind::kSrc && cursors_.create_if_not_exist) {
    cursors_ = saved;
    return VmStatus::Abort("create_if_not_exist on the read-only SRC cursor");
  }
  VmStatus s = SelectPath(instruction, 0, depth);
  cursors_ = saved;
  return s;
}

VmStatus Vm::SelectPath(const Instruction& instruction, size_t step, int depth) {
  const std::vector<PathComponent>& path = instruction.path;
  if (depth > kMaxRunDepth) return VmStatus::Abort("program nests too deeply");
  if (step == path.size()) return RunList(instruction.nested, depth + 1);
  const PathComponent& component = path[step];
  const PathComponent* next = step + 1 < path.size() ? &path[step + 1] : nullptr;
  if (!component.field_id) return VmStatus::Abort("a path step without a field id");
  const uint32_t field_id = *component.field_id;

  if (component.is_repeated) {
    // Foreach: the rest of the path and the nested instructions run once per element.
    if (cursors_.selected == CursorKind::kSrc) {
      std::vector<RoCursor> elements;
      VmStatus s = cursors_.src.RepeatedField(field_id, &elements);
      if (!s.ok()) return s;
      for (const RoCursor& element : elements) {
        cursors_.src = element;
        s = SelectPath(instruction, step + 1, depth + 1);
        if (!s.ok()) return s;
      }
      return VmStatus::Ok();
    }
    if (cursors_.selected == CursorKind::kDst) {
      std::vector<RwCursor> elements;
      VmStatus s = cursors_.dst.RepeatedField(field_id, &elements);
      if (!s.ok()) return s;
      for (const RwCursor& element : elements) {
        cursors_.dst = element;
        s = SelectPath(instruction, step + 1, depth + 1);
        if (!s.ok()) return s;
      }
      return VmStatus::Ok();
    }
    return VmStatus::Abort("iterating needs the SRC or the DST cursor");
  }

  if (next && next->array_index) {
    VmStatus s = EnterFieldAt(field_id, *next->array_index);
    if (!s.ok()) return s;
    return SelectPath(instruction, step + 2, depth + 1);
  }
  if (next && next->map_key_field_id) {
    if (!next->register_to_match) return VmStatus::Abort("a map lookup without a register");
    uint64_t key = 0;
    VmStatus s = ReadRegister(*next->register_to_match, &key);
    if (!s.ok()) return s;
    // Keys are matched as 32-bit values, as trace_processor's VM matches them.
    s = EnterFieldByKey(field_id, *next->map_key_field_id, static_cast<uint32_t>(key));
    if (!s.ok()) return s;
    return SelectPath(instruction, step + 2, depth + 1);
  }
  VmStatus s = EnterField(field_id);
  if (!s.ok()) return s;
  return SelectPath(instruction, step + 1, depth + 1);
}

VmStatus Vm::EnterField(uint32_t field_id) {
  if (cursors_.selected == CursorKind::kSrc) return cursors_.src.EnterField(field_id);
  bool has = false;
  VmStatus s = cursors_.dst.HasField(field_id, &has);
  if (!s.ok()) return s;
  if (!has && !cursors_.create_if_not_exist) return VmStatus::Error();
  return cursors_.dst.EnterField(field_id);
}

VmStatus Vm::EnterFieldAt(uint32_t field_id, uint32_t index) {
  if (cursors_.selected == CursorKind::kSrc) {
    return cursors_.src.EnterRepeatedFieldAt(field_id, index);
  }
  return cursors_.dst.EnterRepeatedFieldAt(field_id, index);
}

VmStatus Vm::EnterFieldByKey(uint32_t field_id, uint32_t key_field_id, uint64_t key) {
  if (cursors_.selected == CursorKind::kSrc) {
    return VmStatus::Abort("map lookups need the DST cursor");
  }
  bool has = false;
  VmStatus s = cursors_.dst.HasField(field_id, &has);
  if (!s.ok()) return s;
  if (!has && !cursors_.create_if_not_exist) return VmStatus::Error();
  return cursors_.dst.EnterRepeatedFieldByKey(field_id, key_field_id, key);
}

VmStatus Vm::ReadRegister(uint32_t reg, uint64_t* value) const {
  if (reg >= registers_.size()) return VmStatus::Abort("register out of range");
  if (!registers_[reg]) return VmStatus::Abort("register read before it was loaded");
  *value = *registers_[reg];
  return VmStatus::Ok();
}

VmStatus Vm::LoadRegister(const Instruction& instruction) {
  if (instruction.dst_register >= registers_.size()) {
    return VmStatus::Abort("register out of range");
  }
  uint8_t wire_type = 0;
  uint64_t value = 0;
  VmStatus s = instruction.cursor == CursorKind::kSrc
                   ? cursors_.src.GetScalar(&wire_type, &value)
                   : cursors_.dst.GetScalar(&wire_type, &value);
  if (s.ok()) registers_[instruction.dst_register] = value;
  return s;
}

VmStatus Vm::Set() {
  // SRC's value replaces DST's: a scalar keeps its wire type, a message or string its bytes.
  if (cursors_.src.IsScalar()) {
    uint8_t wire_type = 0;
    uint64_t value = 0;
    VmStatus s = cursors_.src.GetScalar(&wire_type, &value);
    if (!s.ok()) return s;
    return cursors_.dst.SetScalar(wire_type, value);
  }
  if (cursors_.src.IsBytes()) {
    std::string_view bytes;
    VmStatus s = cursors_.src.GetBytes(&bytes);
    if (!s.ok()) return s;
    return cursors_.dst.SetBytes(bytes);
  }
  return VmStatus::Abort("set from a cursor with no value");
}

}  // namespace tw::protovm
