#pragma once
// A ProtoVM program (perfetto.protos.VmProgram), decoded once when a trace registers it. A
// program is a tree of instructions run against two cursors: SRC, read-only, over the patch
// packet, and DST, read-write, over the VM's incremental state. `select` moves cursors along a
// path of field ids (optionally creating DST fields, indexing or keying repeated fields, or
// iterating them) and runs its nested instructions there; `reg_load` keeps a scalar in one of
// 32 registers (used as map keys); `merge`, `set` and `del` edit DST. An instruction that fails
// softly (a field that is not there) skips itself, its enclosing list, or the whole program,
// as its abort level says.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tw::protovm {

// VmCursorEnum. An instruction without a cursor uses SRC. One that names VM_CURSOR_UNSPECIFIED
// explicitly, or BOTH, moves and reads the DST cursor (as trace_processor's VM does); iterating
// a repeated field needs SRC or DST.
enum class CursorKind : uint8_t { kUnspecified = 0, kSrc = 1, kDst = 2, kBoth = 3 };

// VmInstruction.AbortLevel: what a soft failure of the instruction does.
enum class AbortLevel : uint8_t {
  kSkipInstruction = 1,          // go on with the next instruction
  kSkipInstructionAndBreak = 2,  // stop the enclosing list (the default)
  kAbort = 3,                    // abort the whole program
};

// One step of a select path (VmOpSelect.PathComponent).
struct PathComponent {
  std::optional<uint32_t> field_id;
  std::optional<uint32_t> array_index;       // applies to the previous field id
  std::optional<uint32_t> map_key_field_id;  // applies to the previous field id
  bool is_repeated = false;                  // foreach over the field's occurrences
  std::optional<uint32_t> register_to_match;  // the key of a map lookup
};

struct Instruction {
  enum class Op : uint8_t { kNone, kSelect, kRegLoad, kMerge, kSet, kDel };
  Op op = Op::kNone;
  // select / reg_load
  CursorKind cursor = CursorKind::kSrc;
  // select
  std::vector<PathComponent> path;
  bool create_if_not_exist = false;
  // reg_load
  uint32_t dst_register = 0;
  // merge
  bool skip_submessages = false;
  bool del_if_src_empty = false;

  std::optional<AbortLevel> abort_level;
  std::vector<Instruction> nested;
};

struct Program {
  uint32_t version = 0;
  std::vector<Instruction> instructions;
};

// Decodes a serialized VmProgram; nullopt when it is not a well-formed one.
std::optional<Program> DecodeProgram(std::string_view bytes);

}  // namespace tw::protovm
