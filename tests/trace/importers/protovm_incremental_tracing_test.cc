// ProtoVM incremental tracing in the importer: trace_provenance names each producer's
// sequences, protovms packets register VMs for producers, and patches on those sequences are
// imported as the full packets the VMs make of them. Failures are stats, never crashes.

#include <gtest/gtest.h>

#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/protovm_program_builder.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using namespace protovm_testing;  // NOLINT: the program builders read as a small language
using stdlib_testing::Rows;
using stdlib_testing::Table;

// A trace whose producer 10 wrote sequence 1: its patches carry a counter value (as a
// surfaceflinger-free stand-in, a `battery` packet) turned into full packets by a VM.
struct IncrementalTrace {
  proto::Writer trace;
  void Provenance(int32_t producer, uint32_t sequence) {
    proto::Writer seq;
    seq.Varint(1, sequence);
    seq.Int(2, producer);
    proto::Writer buffer;
    buffer.Message(1, seq);
    proto::Writer provenance;
    provenance.Message(2, buffer);
    proto::Writer packet;
    packet.Message(pf::trace_packet::kTraceProvenance, provenance);
    trace.Message(pf::trace::kPacket, packet);
  }
  void Register(const std::string& program, int32_t producer, const std::string& state = "") {
    proto::Writer instance;
    instance.Bytes(1, program);
    if (!state.empty()) instance.Bytes(2, state);
    instance.Varint(3, 64);
    instance.Int(4, producer);
    proto::Writer vms;
    vms.Message(1, instance);
    proto::Writer packet;
    packet.Message(pf::trace_packet::kProtovms, vms);
    trace.Message(pf::trace::kPacket, packet);
  }
  void Patch(uint32_t sequence, int64_t ts, uint64_t value) {
    proto::Writer packet;
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, sequence);
    packet.Varint(1000, static_cast<uint64_t>(ts));  // patch fields the program knows
    packet.Varint(1001, value);
    trace.Message(pf::trace::kPacket, packet);
  }
};

// Copies patch field 1000 to packet.timestamp and 1001 to battery.charge_counter_uah (field
// 38 of TracePacket, BatteryCounters.charge_counter_uah = 1).
std::string BatteryProgram() {
  return Program({CopyField(1000, pf::trace_packet::kTimestamp),
                  Select(kSrc, {Field(1001)},
                         {Select(kDst, {Field(pf::trace_packet::kBattery), Field(1)}, {Set()},
                                 true)})});
}

TEST(ProtoVmIncrementalTracing, PatchesBecomeFullPackets) {
  IncrementalTrace t;
  t.Provenance(10, 1);
  t.Register(BatteryProgram(), 10);
  t.Patch(1, 1000, 500);
  t.Patch(1, 2000, 450);
  t.Patch(2, 3000, 1);  // a sequence no VM processes: imported as it is (nothing to import)
  auto loaded = LoadTraceBytes(t.trace.Take());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(Rows((*loaded)->db(), "SELECT c.ts, c.value FROM counter c JOIN counter_track t "
                                  "ON t.id = c.track_id ORDER BY c.ts"),
            (Table{{"1000", "500"}, {"2000", "450"}}));
}

TEST(ProtoVmIncrementalTracing, FailuresAreStatsNotCrashes) {
  IncrementalTrace t;
  t.Provenance(10, 1);
  t.Register(BatteryProgram(), 99);           // no provenance for producer 99
  t.Register("\x12\x03\x0a", 10);             // not a program: each patch aborts
  // A program that aborts: it reads a register never loaded.
  t.Register(Program({Select(kDst, {Field(2), KeyFrom(1, 4)}, {Merge()}, true)}), 10);
  t.Patch(1, 1000, 500);
  auto loaded = LoadTraceBytes(t.trace.Take());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(Rows((*loaded)->db(), "SELECT name, value FROM stats WHERE name LIKE 'protovm%' "
                                  "AND value > 0 ORDER BY name"),
            (Table{{"protovm_abort", "2"}, {"protovm_registration_error", "1"}}));
}

}  // namespace
}  // namespace tw
