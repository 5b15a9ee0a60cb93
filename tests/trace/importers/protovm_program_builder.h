#pragma once
// Builds ProtoVM programs (VmProgram bytes, vm_program.proto field numbers) for tests.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/importers/proto/protovm/vm.h"
#include "libs/trace/importers/proto/protovm/vm_program.h"

namespace tw::protovm_testing {

using protovm::DecodeProgram;
using protovm::Vm;

enum Cursor { kUnset = -1, kSrc = 1, kDst = 2 };

inline std::string Field(uint32_t id, bool foreach = false) {
  proto::Writer w;
  w.Varint(1, id);
  if (foreach) w.Bool(5, true);
  return w.Take();
}
inline std::string Index(uint32_t i) {
  proto::Writer w;
  w.Varint(2, i);
  return w.Take();
}
inline std::string KeyFrom(uint32_t key_field, uint32_t reg) {
  proto::Writer w;
  w.Varint(3, key_field);
  w.Varint(6, reg);
  return w.Take();
}
inline std::string Instruction(uint32_t op, const std::string& body, const std::vector<std::string>& nested,
                        std::optional<int> abort_level) {
  proto::Writer w;
  w.Bytes(op, body);
  if (abort_level) w.Varint(6, static_cast<uint64_t>(*abort_level));
  for (const std::string& n : nested) w.Bytes(7, n);
  return w.Take();
}
inline std::string Select(Cursor cursor, const std::vector<std::string>& path,
                   const std::vector<std::string>& nested, bool create = false,
                   std::optional<int> abort_level = std::nullopt) {
  proto::Writer s;
  if (cursor != kUnset) s.Varint(1, static_cast<uint64_t>(cursor));
  for (const std::string& p : path) s.Bytes(2, p);
  if (create) s.Bool(3, true);
  return Instruction(1, s.Take(), nested, abort_level);
}
inline std::string Set() { return Instruction(4, "", {}, std::nullopt); }
inline std::string Del() { return Instruction(5, "", {}, std::nullopt); }
inline std::string Merge(bool skip_submessages = false, bool del_if_src_empty = false) {
  proto::Writer m;
  if (skip_submessages) m.Bool(1, true);
  if (del_if_src_empty) m.Bool(2, true);
  return Instruction(3, m.Take(), {}, std::nullopt);
}
inline std::string RegLoad(uint32_t reg) {
  proto::Writer r;
  r.Varint(2, reg);
  return Instruction(2, r.Take(), {}, std::nullopt);
}
inline std::string Program(const std::vector<std::string>& instructions) {
  proto::Writer w;
  w.Varint(1, 1);
  for (const std::string& i : instructions) w.Bytes(2, i);
  return w.Take();
}

inline Vm MakeVm(const std::vector<std::string>& instructions, const std::string& state = "",
          size_t limit = 64 * 1024) {
  auto program = DecodeProgram(Program(instructions));
  EXPECT_TRUE(program.has_value());
  return Vm(program.value_or(protovm::Program{}), limit, state);
}

// "src field 1 → dst field 1": copies a scalar or bytes field across.
inline std::string CopyField(uint32_t src, uint32_t dst, std::optional<int> abort_level = std::nullopt) {
  return Select(kSrc, {Field(src)}, {Select(kDst, {Field(dst)}, {Set()}, /*create=*/true)}, false,
                abort_level);
}

}  // namespace tw::protovm_testing
