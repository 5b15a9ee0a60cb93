#include "libs/trace/importers/proto/protovm/vm_program.h"

#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw::protovm {
namespace {

// Field numbers of protos/perfetto/protovm/vm_program.proto (wire-format facts).
namespace program_fields {
constexpr uint32_t kVersion = 1, kInstructions = 2;
}
namespace instruction_fields {
constexpr uint32_t kSelect = 1, kRegLoad = 2, kMerge = 3, kSet = 4, kDel = 5, kAbortLevel = 6,
                   kNestedInstructions = 7;
}
namespace select_fields {
constexpr uint32_t kCursor = 1, kRelativePath = 2, kCreateIfNotExist = 3;
}
namespace path_fields {
constexpr uint32_t kFieldId = 1, kArrayIndex = 2, kMapKeyFieldId = 3, kIsRepeated = 5,
                   kRegisterToMatch = 6;
}
namespace reg_load_fields {
constexpr uint32_t kCursor = 1, kDstRegister = 2;
}
namespace merge_fields {
constexpr uint32_t kSkipSubmessages = 1, kDelIfSrcEmpty = 2;
}

// Programs nest; a hostile one must not exhaust the stack while decoding (or running).
constexpr int kMaxDepth = 64;

std::optional<CursorKind> Cursor(uint64_t v) {
  if (v > 3) return std::nullopt;
  return static_cast<CursorKind>(v);
}

bool DecodePath(const proto::Field& f, PathComponent* out) {
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case path_fields::kFieldId: out->field_id = x.as_uint32(); break;
      case path_fields::kArrayIndex: out->array_index = x.as_uint32(); break;
      case path_fields::kMapKeyFieldId: out->map_key_field_id = x.as_uint32(); break;
      case path_fields::kIsRepeated: out->is_repeated = x.as_bool(); break;
      case path_fields::kRegisterToMatch: out->register_to_match = x.as_uint32(); break;
      default: break;
    }
  }
  return !d.error();
}

bool DecodeInstruction(const proto::Field& f, int depth, Instruction* out);

bool DecodeSelect(const proto::Field& f, Instruction* out) {
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case select_fields::kCursor: {
        const auto c = Cursor(x.as_uint64());
        if (!c) return false;
        out->cursor = *c;
        break;
      }
      case select_fields::kRelativePath:
        if (x.type != proto::kLengthDelimited) return false;
        if (!DecodePath(x, &out->path.emplace_back())) return false;
        break;
      case select_fields::kCreateIfNotExist: out->create_if_not_exist = x.as_bool(); break;
      default: break;
    }
  }
  return !d.error();
}

bool DecodeInstruction(const proto::Field& f, int depth, Instruction* out) {
  if (depth > kMaxDepth || f.type != proto::kLengthDelimited) return false;
  // The operation is a oneof; if a writer set several, the first of select, reg_load, del,
  // merge, set is the one that runs (as trace_processor picks it).
  bool has_select = false, has_reg_load = false, has_merge = false, has_set = false,
       has_del = false;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case instruction_fields::kSelect:
        if (x.type != proto::kLengthDelimited) return false;
        has_select = true;
        if (!DecodeSelect(x, out)) return false;
        break;
      case instruction_fields::kRegLoad: {
        if (x.type != proto::kLengthDelimited) return false;
        has_reg_load = true;
        proto::Decoder rd(x);
        proto::Field r;
        while (rd.Next(&r)) {
          if (r.id == reg_load_fields::kCursor) {
            const auto c = Cursor(r.as_uint64());
            if (!c) return false;
            out->cursor = *c;
          }
          if (r.id == reg_load_fields::kDstRegister) out->dst_register = r.as_uint32();
        }
        if (rd.error()) return false;
        break;
      }
      case instruction_fields::kMerge: {
        if (x.type != proto::kLengthDelimited) return false;
        has_merge = true;
        proto::Decoder md(x);
        proto::Field m;
        while (md.Next(&m)) {
          if (m.id == merge_fields::kSkipSubmessages) out->skip_submessages = m.as_bool();
          if (m.id == merge_fields::kDelIfSrcEmpty) out->del_if_src_empty = m.as_bool();
        }
        if (md.error()) return false;
        break;
      }
      case instruction_fields::kSet: has_set = true; break;
      case instruction_fields::kDel: has_del = true; break;
      case instruction_fields::kAbortLevel: {
        const uint64_t level = x.as_uint64();
        if (level < 1 || level > 3) return false;
        out->abort_level = static_cast<AbortLevel>(level);
        break;
      }
      case instruction_fields::kNestedInstructions:
        if (!DecodeInstruction(x, depth + 1, &out->nested.emplace_back())) return false;
        break;
      default: break;
    }
  }
  if (has_select) {
    out->op = Instruction::Op::kSelect;
  } else if (has_reg_load) {
    out->op = Instruction::Op::kRegLoad;
  } else if (has_del) {
    out->op = Instruction::Op::kDel;
  } else if (has_merge) {
    out->op = Instruction::Op::kMerge;
  } else if (has_set) {
    out->op = Instruction::Op::kSet;
  }
  return !d.error();
}

}  // namespace

std::optional<Program> DecodeProgram(std::string_view bytes) {
  Program program;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == program_fields::kVersion) program.version = f.as_uint32();
    if (f.id == program_fields::kInstructions) {
      if (!DecodeInstruction(f, 0, &program.instructions.emplace_back())) return std::nullopt;
    }
  }
  if (d.error()) return std::nullopt;
  return program;
}

}  // namespace tw::protovm
