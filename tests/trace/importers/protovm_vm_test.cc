// ProtoVM: programs decoded from VmProgram bytes, each instruction (select with create / index /
// key / foreach, set, merge, del, reg_load), abort levels and the memory limit.

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/importers/proto/protovm/vm.h"
#include "libs/trace/importers/proto/protovm/vm_program.h"
#include "tests/trace/importers/protovm_program_builder.h"

namespace tw {
namespace {

using namespace protovm_testing;  // NOLINT: the program builders read as a small language
using protovm::VmStatus;

TEST(ProtoVmProgram, DecodesNestedInstructions) {
  auto program = DecodeProgram(Program(
      {Select(kSrc, {Field(94), Field(2)}, {Select(kDst, {Field(93), Field(8)}, {Set()}, true)},
              false, 2),
       Merge(true, true), Del(), RegLoad(3)}));
  ASSERT_TRUE(program);
  ASSERT_EQ(program->instructions.size(), 4u);
  const protovm::Instruction& select = program->instructions[0];
  EXPECT_EQ(select.op, protovm::Instruction::Op::kSelect);
  EXPECT_EQ(select.cursor, protovm::CursorKind::kSrc);
  ASSERT_EQ(select.path.size(), 2u);
  EXPECT_EQ(select.path[1].field_id, 2u);
  EXPECT_EQ(select.abort_level, protovm::AbortLevel::kSkipInstructionAndBreak);
  ASSERT_EQ(select.nested.size(), 1u);
  EXPECT_TRUE(select.nested[0].create_if_not_exist);
  EXPECT_EQ(select.nested[0].cursor, protovm::CursorKind::kDst);
  EXPECT_EQ(select.nested[0].nested[0].op, protovm::Instruction::Op::kSet);
  EXPECT_TRUE(program->instructions[1].skip_submessages);
  EXPECT_TRUE(program->instructions[1].del_if_src_empty);
  EXPECT_EQ(program->instructions[2].op, protovm::Instruction::Op::kDel);
  EXPECT_EQ(program->instructions[3].dst_register, 3u);
}

TEST(ProtoVmProgram, RejectsMalformedPrograms) {
  EXPECT_FALSE(DecodeProgram("\x12\x05\x0a"));                      // truncated instruction
  EXPECT_FALSE(DecodeProgram(Program({Instruction(4, "", {}, 7)})));  // no such abort level
  proto::Writer bad_cursor;
  bad_cursor.Varint(1, 9);
  EXPECT_FALSE(DecodeProgram(Program({Instruction(1, bad_cursor.Take(), {}, std::nullopt)})));
  // Nesting beyond what the decoder accepts.
  std::string deep = Set();
  for (int i = 0; i < 100; ++i) deep = Instruction(4, "", {deep}, std::nullopt);
  EXPECT_FALSE(DecodeProgram(Program({deep})));
}

TEST(ProtoVmProgram, AMalformedProgramAbortsEveryPatch) {
  Vm vm(DecodeProgram("\x12\x05\x0a"), 1024, "");
  EXPECT_TRUE(vm.ApplyPatch("").is_abort());
  EXPECT_TRUE(vm.ApplyPatch("\x08\x01").is_abort());
}

TEST(ProtoVmSelectAndSet, CopiesScalarsAndBytesCreatingThePath) {
  proto::Writer inner;
  inner.Varint(1, 42);
  proto::Writer initial;
  initial.Message(5, inner);
  Vm vm = MakeVm({Select(kSrc, {Field(1)},
                         {Select(kDst, {Field(5), Field(2)}, {Set()}, /*create=*/true)}),
                  CopyField(2, 3)},
                 initial.data());
  proto::Writer patch;
  patch.Varint(1, 7);
  patch.String(2, "name");
  ASSERT_TRUE(vm.ApplyPatch(patch.data()).ok());
  proto::Writer want_inner;
  want_inner.Varint(1, 42);
  want_inner.Varint(2, 7);
  proto::Writer want;
  want.String(3, "name");
  want.Message(5, want_inner);
  EXPECT_EQ(vm.SerializeState(), want.data());
}

TEST(ProtoVmSelectAndSet, KeepsWireTypesOfScalars) {
  Vm vm = MakeVm({CopyField(1, 1), CopyField(2, 2)});
  proto::Writer patch;
  patch.Fixed32(1, 0xdeadbeef);
  patch.Fixed64(2, 0x0123456789abcdefULL);
  ASSERT_TRUE(vm.ApplyPatch(patch.data()).ok());
  EXPECT_EQ(vm.SerializeState(), patch.data());
}

TEST(ProtoVmSelectAndSet, MissingDstFieldWithoutCreateIsASoftFailure) {
  Vm vm = MakeVm({Select(kSrc, {Field(1)}, {Select(kDst, {Field(9)}, {Set()})})});
  proto::Writer patch;
  patch.Varint(1, 7);
  EXPECT_TRUE(vm.ApplyPatch(patch.data()).is_error());
  EXPECT_EQ(vm.SerializeState(), "");
}

TEST(ProtoVmAbortLevels, SkipBreakOrAbort) {
  proto::Writer patch;
  patch.Varint(2, 5);
  // Field 1 is missing: skipping it lets the next copy run.
  Vm skip = MakeVm({CopyField(1, 1, /*abort_level=*/1), CopyField(2, 2)});
  EXPECT_TRUE(skip.ApplyPatch(patch.data()).ok());
  EXPECT_EQ(skip.SerializeState(), patch.data());
  // The default breaks out: nothing after it runs, the program fails softly.
  Vm brk = MakeVm({CopyField(1, 1), CopyField(2, 2)});
  EXPECT_TRUE(brk.ApplyPatch(patch.data()).is_error());
  EXPECT_EQ(brk.SerializeState(), "");
  // 'abort' turns the soft failure into a hard one.
  Vm abort = MakeVm({CopyField(1, 1, /*abort_level=*/3), CopyField(2, 2)});
  EXPECT_TRUE(abort.ApplyPatch(patch.data()).is_abort());
}

TEST(ProtoVmMerge, ReplacesFieldsAndRepeatedFieldsAsAWhole) {
  proto::Writer initial;
  initial.Varint(1, 1);
  initial.String(2, "keep");
  initial.Varint(3, 10);
  initial.Varint(3, 11);
  initial.Varint(3, 12);
  Vm vm = MakeVm({Merge()}, initial.data());
  proto::Writer patch;
  patch.Varint(1, 2);
  patch.Varint(3, 20);
  patch.Varint(3, 21);
  ASSERT_TRUE(vm.ApplyPatch(patch.data()).ok());
  proto::Writer want;
  want.Varint(1, 2);
  want.String(2, "keep");
  want.Varint(3, 20);
  want.Varint(3, 21);
  EXPECT_EQ(vm.SerializeState(), want.data());
}

TEST(ProtoVmMerge, SkipsDecomposedSubmessagesAndDeletesOnEmpty) {
  proto::Writer sub;
  sub.Varint(1, 1);
  sub.Varint(2, 2);
  proto::Writer initial;
  initial.Message(4, sub);
  initial.String(5, "gone soon");
  // Merge field 4 first (bottom-up), then the packet without touching field 4 again; an empty
  // field 5 in the patch deletes it.
  Vm vm = MakeVm({Select(kSrc, {Field(4)}, {Select(kDst, {Field(4)}, {Merge()}, true)}, false, 1),
                  Merge(/*skip_submessages=*/true, /*del_if_src_empty=*/true)},
                 initial.data());
  proto::Writer patch_sub;
  patch_sub.Varint(2, 9);
  proto::Writer patch;
  patch.Message(4, patch_sub);
  patch.String(5, "");
  patch.Varint(6, 3);
  ASSERT_TRUE(vm.ApplyPatch(patch.data()).ok());
  proto::Writer want_sub;
  want_sub.Varint(1, 1);
  want_sub.Varint(2, 9);
  proto::Writer want;
  want.Message(4, want_sub);
  want.Varint(6, 3);
  EXPECT_EQ(vm.SerializeState(), want.data());
}

TEST(ProtoVmDel, DeletesFieldsAndRefusesToDeleteWhatASelectRestores) {
  proto::Writer initial;
  initial.Varint(1, 1);
  initial.Varint(2, 2);
  Vm vm = MakeVm({Select(kDst, {Field(1)}, {Del()})}, initial.data());
  ASSERT_TRUE(vm.ApplyPatch("").ok());
  proto::Writer want;
  want.Varint(2, 2);
  EXPECT_EQ(vm.SerializeState(), want.data());
  // An empty-path select aliases the enclosing cursor: deleting it would leave that dangling.
  Vm alias = MakeVm({Select(kDst, {Field(2)}, {Select(kDst, {}, {Del()})})}, initial.data());
  EXPECT_TRUE(alias.ApplyPatch("").is_abort());
  // Deleting the root empties the state.
  Vm root = MakeVm({Del()}, initial.data());
  ASSERT_TRUE(root.ApplyPatch("").ok());
  EXPECT_EQ(root.SerializeState(), "");
}

// A layer list keyed by layer id (field 1 of each element of field 2), patched by key.
TEST(ProtoVmMappedFields, RegisterKeysFindTheElementToPatch) {
  auto layer = [](uint64_t id, uint64_t z) {
    proto::Writer l;
    l.Varint(1, id);
    l.Varint(3, z);
    return l;
  };
  proto::Writer initial;
  initial.Message(2, layer(10, 1));
  initial.Message(2, layer(20, 2));
  // For each changed layer in the patch: R1 = its id; DST layer[R1] merges the change.
  Vm vm = MakeVm({Select(
      kSrc, {Field(2, /*foreach=*/true)},
      {Select(kSrc, {Field(1)}, {RegLoad(1)}),
       Select(kDst, {Field(2), KeyFrom(1, 1)}, {Merge()}, /*create=*/true)})},
      initial.data());
  proto::Writer patch;
  patch.Message(2, layer(20, 7));
  patch.Message(2, layer(30, 5));
  ASSERT_TRUE(vm.ApplyPatch(patch.data()).ok());
  proto::Writer want;
  want.Message(2, layer(10, 1));
  want.Message(2, layer(20, 7));
  want.Message(2, layer(30, 5));
  EXPECT_EQ(vm.SerializeState(), want.data());
}

TEST(ProtoVmMappedFields, UnloadedRegisterAborts) {
  Vm vm = MakeVm({Select(kDst, {Field(2), KeyFrom(1, 4)}, {Merge()}, true)});
  EXPECT_TRUE(vm.ApplyPatch("").is_abort());
}

TEST(ProtoVmIndexedFields, AppendsButNeverLeavesHoles) {
  Vm vm = MakeVm({Select(kSrc, {Field(1)},
                         {Select(kDst, {Field(3), Index(0)}, {Set()}),
                          Select(kDst, {Field(3), Index(1)}, {Set()})})});
  proto::Writer patch;
  patch.Varint(1, 4);
  ASSERT_TRUE(vm.ApplyPatch(patch.data()).ok());
  proto::Writer want;
  want.Varint(3, 4);
  want.Varint(3, 4);
  EXPECT_EQ(vm.SerializeState(), want.data());
  Vm hole = MakeVm({Select(kSrc, {Field(1)}, {Select(kDst, {Field(3), Index(5)}, {Set()})})});
  EXPECT_TRUE(hole.ApplyPatch(patch.data()).is_abort());
}

TEST(ProtoVmForeach, VisitsEveryDstElement) {
  proto::Writer item;
  item.Varint(1, 1);
  proto::Writer initial;
  initial.Message(2, item);
  initial.Message(2, item);
  // Every element of DST field 2 gets field 5 from the patch's field 1.
  Vm vm = MakeVm({Select(kDst, {Field(2, /*foreach=*/true)},
                         {Select(kSrc, {Field(1)},
                                 {Select(kDst, {Field(5)}, {Set()}, /*create=*/true)})})},
                 initial.data());
  proto::Writer patch;
  patch.Varint(1, 9);
  ASSERT_TRUE(vm.ApplyPatch(patch.data()).ok());
  proto::Writer want_item;
  want_item.Varint(1, 1);
  want_item.Varint(5, 9);
  proto::Writer want;
  want.Message(2, want_item);
  want.Message(2, want_item);
  EXPECT_EQ(vm.SerializeState(), want.data());
}

TEST(ProtoVmMemory, GoingOverTheLimitAborts) {
  Vm vm = MakeVm({CopyField(1, 1)}, "", /*limit=*/256);
  proto::Writer small;
  small.String(1, std::string(16, 'x'));
  EXPECT_TRUE(vm.ApplyPatch(small.data()).ok());
  proto::Writer big;
  big.String(1, std::string(1024, 'x'));
  EXPECT_TRUE(vm.ApplyPatch(big.data()).is_abort());
  EXPECT_LE(vm.memory_used(), 256u);
}

// Random programs over random states and patches, built from every instruction and path kind:
// whatever they do, the VM ends ok, soft-failed or aborted, stays within its memory limit, and
// its state still serializes.
TEST(ProtoVmRobustness, RandomProgramsNeverCrash) {
  std::mt19937 rng(17);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  auto field_id = [&]() { return static_cast<uint32_t>(1 + pick(4)); };
  std::function<std::string(int)> instruction = [&](int depth) -> std::string {
    std::vector<std::string> nested;
    if (depth < 3) {
      for (int i = pick(3); i > 0; --i) nested.push_back(instruction(depth + 1));
    }
    std::optional<int> abort_level;
    if (pick(3) == 0) abort_level = 1 + pick(3);
    switch (pick(6)) {
      case 0: {
        std::vector<std::string> path;
        for (int i = pick(3); i > 0; --i) {
          switch (pick(4)) {
            case 0: path.push_back(Field(field_id(), /*foreach=*/true)); break;
            case 1: path.push_back(Field(field_id())); path.push_back(Index(pick(3))); break;
            case 2: path.push_back(Field(field_id())); path.push_back(KeyFrom(1, pick(3))); break;
            default: path.push_back(Field(field_id())); break;
          }
        }
        const Cursor cursor = pick(3) == 0 ? kSrc : kDst;
        return Select(cursor, path, nested, cursor == kDst && pick(2) == 0, abort_level);
      }
      case 1: return Instruction(4, "", nested, abort_level);                   // set
      case 2: return Instruction(5, "", nested, abort_level);                   // del
      case 3: return Merge(pick(2) == 0, pick(2) == 0);
      case 4: return RegLoad(static_cast<uint32_t>(pick(3)));
      default: return Instruction(1, "", nested, abort_level);                  // empty select
    }
  };
  std::function<std::string(int)> message = [&](int depth) -> std::string {
    proto::Writer w;
    for (int i = pick(5); i > 0; --i) {
      const uint32_t id = field_id();
      switch (pick(4)) {
        case 0: w.Varint(id, static_cast<uint64_t>(pick(4))); break;
        case 1: w.Fixed32(id, static_cast<uint32_t>(pick(100))); break;
        case 2: w.String(id, std::string(static_cast<size_t>(pick(6)), 'a')); break;
        default: w.Bytes(id, depth < 3 ? message(depth + 1) : ""); break;
      }
    }
    return w.Take();
  };
  int ok = 0, errors = 0, aborts = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<std::string> instructions;
    for (int i = 1 + pick(3); i > 0; --i) instructions.push_back(instruction(0));
    auto program = DecodeProgram(Program(instructions));
    ASSERT_TRUE(program);
    const size_t limit = 512 + static_cast<size_t>(pick(4096));
    Vm vm(std::move(*program), limit, message(0));
    for (int patch = 0; patch < 4; ++patch) {
      const VmStatus status = vm.ApplyPatch(message(0));
      ok += status.ok();
      errors += status.is_error();
      aborts += status.is_abort();
      ASSERT_LE(vm.memory_used(), limit);
      // A program may set the root to any bytes (the importer then counts a decode error),
      // but a decomposed state always serializes to a well-formed message.
      const std::string state = vm.SerializeState();
      if (vm.state_is_decomposed()) {
        proto::Decoder d(state);
        proto::Field f;
        while (d.Next(&f)) {
        }
        ASSERT_FALSE(d.error());
      }
    }
  }
  // The generator reaches every outcome.
  EXPECT_GT(ok, 0);
  EXPECT_GT(errors, 0);
  EXPECT_GT(aborts, 0);
}

}  // namespace
}  // namespace tw
