// The Android framework's process lifecycle TrackEvent extensions (AndroidProcessStartEvent,
// AndroidBinderDiedEvent) → __intrinsic_android_track_event_process and process names/uids,
// with enum values named from the trace's ExtensionDescriptor.

#include <gtest/gtest.h>

#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

namespace ps = pf::android_process_start_event;

void AddPacket(proto::Writer& trace, const proto::Writer& packet) {
  trace.Message(pf::trace::kPacket, packet);
}

proto::Writer ThreadTrack(uint64_t uuid, int32_t pid) {
  proto::Writer thread;
  thread.Int(pf::thread_descriptor::kPid, pid);
  thread.Int(pf::thread_descriptor::kTid, pid);
  proto::Writer track;
  track.Varint(pf::track_descriptor::kUuid, uuid);
  track.Message(pf::track_descriptor::kThread, thread);
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, 1);
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  packet.Message(pf::trace_packet::kTrackDescriptor, track);
  return packet;
}

proto::Writer InstantWith(int64_t ts, uint64_t track_uuid, uint32_t extension,
                          const proto::Writer& body) {
  proto::Writer event;
  event.Varint(pf::track_event::kType, pf::track_event_type::kInstant);
  event.Varint(pf::track_event::kTrackUuid, track_uuid);
  event.String(pf::track_event::kName, "lifecycle");
  event.Message(extension, body);
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  packet.Message(pf::trace_packet::kTrackEvent, event);
  return packet;
}

// An ExtensionDescriptor declaring enum .com.android.internal.TriggerType { JOB = 4 }.
proto::Writer TriggerTypeDescriptor() {
  proto::Writer value;
  value.String(1, "TRIGGER_TYPE_JOB");  // EnumValueDescriptorProto.name
  value.Int(2, 4);                      // .number
  proto::Writer enum_type;
  enum_type.String(1, "TriggerType");   // EnumDescriptorProto.name
  enum_type.Message(2, value);          // .value
  proto::Writer file;
  file.String(1, "fbte_enums.proto");   // FileDescriptorProto.name
  file.String(2, "com.android.internal");
  file.Message(5, enum_type);           // .enum_type
  proto::Writer set;
  set.Message(1, file);                 // FileDescriptorSet.file
  proto::Writer descriptor;
  descriptor.Message(1, set);           // ExtensionDescriptor.extension_set
  proto::Writer packet;
  packet.Message(pf::trace_packet::kExtensionDescriptor, descriptor);
  return packet;
}

TEST(AndroidFrameworkProcess, StartNamesTheProcessAndDeathEndsIt) {
  proto::Writer trace;
  AddPacket(trace, ThreadTrack(2, 100));
  AddPacket(trace, TriggerTypeDescriptor());
  proto::Writer start;
  start.Int(ps::kUid, 10001);
  start.Int(ps::kPid, 100);
  start.String(ps::kProcessName, "com.example.app");
  start.Int(ps::kStartSeqId, 42);
  start.Int(ps::kPackageUid, 10002);
  start.Int(ps::kTriggerType, 4);
  start.Int(ps::kHostingType, 11);  // no descriptor for HostingTypeId: stays a number
  AddPacket(trace, InstantWith(2000, 2, pf::frameworks_base_track_event::kProcessStartEvent,
                               start));
  proto::Writer restart;
  restart.Int(ps::kPid, 100);
  AddPacket(trace, InstantWith(3000, 2, pf::frameworks_base_track_event::kProcessStartEvent,
                               restart));
  proto::Writer died;
  died.Int(pf::android_binder_died_event::kPid, 100);
  AddPacket(trace, InstantWith(5000, 2, pf::frameworks_base_track_event::kBinderDiedEvent,
                               died));
  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT p.pid, p.name, p.uid, f.start_seq_id, f.package_uid, f.caller_uid, f.fw_start_ts,
             f.fw_end_ts, f.trigger_type, f.hosting_type
      FROM __intrinsic_android_track_event_process AS f JOIN process AS p USING (upid))"),
            (Table{{"100", "com.example.app", "10001", "42", "10002", "NULL", "2000", "5000",
                    "TRIGGER_TYPE_JOB", "11"}}));
  // The instants are still slices of the thread.
  EXPECT_EQ(Rows((*t)->db(), "SELECT COUNT(*) FROM slice WHERE name = 'lifecycle'"),
            (Table{{"3"}}));
}

}  // namespace
}  // namespace tw
