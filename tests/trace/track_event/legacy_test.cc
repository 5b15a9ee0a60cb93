// Legacy (pre-descriptor) track events: ThreadDescriptor packets with delta timestamps,
// legacy phases, async ids, pid/tid overrides — and timestamp overflow handling.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/track_event/test_packets.h"

namespace tw::testing {
namespace {

using ::testing::ElementsAre;
namespace le = pf::track_event_legacy_event;
namespace thd = pf::thread_descriptor;

proto::Writer LegacyThread(int32_t pid, int32_t tid, int64_t reference_us) {
  proto::Writer t;
  t.Int(thd::kPid, pid);
  t.Int(thd::kTid, tid);
  t.Int(thd::kReferenceTimestampUs, reference_us);
  return t;
}

// A legacy event: name, phase, optional delta timestamp.
proto::Writer LegacyEvent(std::string_view name, char phase, std::optional<int64_t> delta_us,
                          proto::Writer legacy = {}) {
  proto::Writer e;
  if (!name.empty()) e.String(te::kName, name);
  e.String(te::kCategories, "cat");
  if (delta_us) e.Int(te::kTimestampDeltaUs, *delta_us);
  legacy.Int(le::kPhase, phase);
  e.Message(te::kLegacyEvent, legacy);
  return e;
}

TEST(LegacyTrackEvents, DeltaTimestampsFollowTheThreadDescriptor) {
  proto::Writer complete;
  complete.Int(le::kDurationUs, 3);
  const std::string trace = Trace({
      Packet(1, std::nullopt).ClearedState().Field(tp::kThreadDescriptor, LegacyThread(8, 9, 1000)),
      Packet(1, std::nullopt).Event(LegacyEvent("b", 'B', 1)),     // 1001 us
      Packet(1, std::nullopt).Event(LegacyEvent("x", 'X', 2, complete)),  // 1003 us, 3 us
      Packet(1, std::nullopt).Event(LegacyEvent("", 'E', 10)),     // 1013 us
  });
  EXPECT_THAT(Rows(trace, "SELECT s.name, s.ts, s.dur, t.tid FROM slice s "
                          "JOIN thread_track tt ON s.track_id = tt.id JOIN thread t USING (utid) "
                          "ORDER BY s.ts"),
              ElementsAre(R"("b",1001000,12000,9)", R"("x",1003000,3000,9)"));
}

TEST(LegacyTrackEvents, DeltaWithoutThreadDescriptorIsSkipped) {
  const std::string trace = Trace({Packet(1, std::nullopt).Event(LegacyEvent("b", 'I', 1))});
  EXPECT_THAT(Rows(trace, "SELECT count(*) FROM slice"), ElementsAre("0"));
  EXPECT_THAT(Rows(trace, "SELECT value FROM stats WHERE name = "
                          "'track_event_skipped_timestamp_delta_without_valid_state'"),
              ElementsAre("1"));
}

TEST(LegacyTrackEvents, OverflowingTimestampIsDroppedAndCounted) {
  proto::Writer e = Event(kInstant, "bad", 1);
  e.Int(te::kTimestampAbsoluteUs, -9223372036854776LL);
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(NamedTrack(1, "t")),
      Packet(1, std::nullopt).Event(e),
  });
  EXPECT_THAT(Rows(trace, "SELECT count(*) FROM slice"), ElementsAre("0"));
  EXPECT_THAT(Rows(trace, "SELECT value FROM stats WHERE name = 'track_event_invalid_timestamp'"),
              ElementsAre("1"));
}

TEST(LegacyTrackEvents, StreamingProfileDeltasAdvanceTheSequenceTime) {
  constexpr uint32_t kTimestampDeltaUs = 2;  // StreamingProfilePacket.timestamp_delta_us
  proto::Writer profile;
  profile.Int(kTimestampDeltaUs, 5);
  profile.Int(kTimestampDeltaUs, 7);
  const std::string trace = Trace({
      Packet(1, std::nullopt).ClearedState().Field(tp::kThreadDescriptor, LegacyThread(8, 9, 1000)),
      Packet(1, std::nullopt).Field(tp::kStreamingProfilePacket, profile),  // 1012 us
      Packet(1, std::nullopt).Event(LegacyEvent("i", 'I', 1)),             // 1013 us
  });
  EXPECT_THAT(Rows(trace, "SELECT name, ts FROM slice"), ElementsAre(R"("i",1013000)"));
}

TEST(LegacyTrackEvents, OverflowingStreamingProfileDeltaPoisonsTheSequence) {
  constexpr uint32_t kTimestampDeltaUs = 2;
  proto::Writer overflow, zero;
  overflow.Int(kTimestampDeltaUs, -9223372036854776LL);
  zero.Int(kTimestampDeltaUs, 0);
  const std::string trace = Trace({
      Packet(1, std::nullopt).ClearedState().Field(tp::kThreadDescriptor, LegacyThread(8, 9, 0)),
      Packet(1, std::nullopt).Field(tp::kStreamingProfilePacket, overflow),
      Packet(1, std::nullopt).Field(tp::kStreamingProfilePacket, zero),
      Packet(1, std::nullopt).Event(LegacyEvent("late", 'I', 0)),
  });
  EXPECT_THAT(Rows(trace, "SELECT count(*) FROM slice"), ElementsAre("0"));
  EXPECT_THAT(Rows(trace, "SELECT value FROM stats WHERE name = "
                          "'streaming_profile_invalid_timestamp'"),
              ElementsAre("2"));
  EXPECT_THAT(Rows(trace, "SELECT value FROM stats WHERE name = 'track_event_invalid_timestamp'"),
              ElementsAre("1"));
}

TEST(LegacyTrackEvents, AsyncEventsShareTheTrackOfTheirId) {
  proto::Writer id;
  id.Varint(le::kUnscopedId, 77);
  const std::string trace = Trace({
      Packet(1, 0).Field(tp::kThreadDescriptor, LegacyThread(8, 9, 0)),
      Packet(1, 100).Event(LegacyEvent("req", 'b', std::nullopt, id)),
      Packet(1, 150).Event(LegacyEvent("step", 'n', std::nullopt, id)),
      Packet(1, 200).Event(LegacyEvent("", 'e', std::nullopt, id)),
  });
  // One track, named after the first event with the id.
  EXPECT_THAT(Rows(trace, "SELECT s.name, s.dur, s.depth, t.name, t.type, "
                          "extract_arg(s.arg_set_id, 'legacy_trace_source_id') "
                          "FROM slice s JOIN track t ON s.track_id = t.id ORDER BY s.ts"),
              ElementsAre(R"("req",100,0,"req","legacy_async_global_slice",77)",
                          R"("step",0,1,"req","legacy_async_global_slice",77)"));
}

TEST(LegacyTrackEvents, PidOverrideMovesEventToThatProcess) {
  proto::Writer override;
  override.Int(le::kPidOverride, 42);
  override.Int(le::kTidOverride, 43);
  const std::string trace = Trace({
      Packet(1, 0).Field(tp::kThreadDescriptor, LegacyThread(8, 9, 0)),
      Packet(1, 100).Event(LegacyEvent("elsewhere", 'I', std::nullopt, override)),
  });
  EXPECT_THAT(Rows(trace, "SELECT t.tid, p.pid FROM slice s "
                          "JOIN thread_track tt ON s.track_id = tt.id JOIN thread t USING (utid) "
                          "JOIN process p USING (upid)"),
              ElementsAre("43,42"));
}

TEST(LegacyTrackEvents, ProcessScopedInstantGoesOnProcessTrack) {
  proto::Writer scope;
  scope.Varint(le::kInstantEventScope, 2);
  const std::string trace = Trace({
      Packet(1, 0).Field(tp::kThreadDescriptor, LegacyThread(8, 9, 0)),
      Packet(1, 100).Event(LegacyEvent("p_instant", 'I', std::nullopt, scope)),
  });
  EXPECT_THAT(Rows(trace, "SELECT s.name, p.pid, "
                          "extract_arg(s.arg_set_id, 'legacy_event.passthrough_utid') IS NOT NULL "
                          "FROM slice s JOIN process_track pt ON s.track_id = pt.id "
                          "JOIN process p USING (upid)"),
              ElementsAre(R"("p_instant",8,1)"));
}

TEST(LegacyTrackEvents, MetadataEventsNameThreadAndProcess) {
  auto metadata = [](std::string_view name, std::string_view value) {
    proto::Writer a;
    a.String(pf::debug_annotation::kName, "name");
    a.String(pf::debug_annotation::kStringValue, value);
    proto::Writer e = LegacyEvent(name, 'M', std::nullopt);
    e.Message(te::kDebugAnnotations, a);
    return e;
  };
  const std::string trace = Trace({
      Packet(1, 0).Field(tp::kThreadDescriptor, LegacyThread(8, 9, 0)),
      Packet(1, 10).Event(metadata("thread_name", "Worker")),
      Packet(1, 10).Event(metadata("process_name", "Renderer")),
  });
  EXPECT_THAT(Rows(trace, "SELECT t.name, p.name FROM thread t JOIN process p USING (upid) "
                          "WHERE t.tid = 9"),
              ElementsAre(R"("Worker","Renderer")"));
}

// Phases that make no slice (here an object snapshot 'O' and a metadata event other than a
// name) are kept in chrome_raw on their thread, the legacy fields first, then the event's args.
TEST(LegacyTrackEvents, OtherPhasesAreKeptAsRawEventsWithLegacyArgs) {
  proto::Writer snapshot;
  snapshot.Varint(le::kUnscopedId, 0x1f);
  snapshot.String(le::kIdScope, "cc::LayerTree");
  snapshot.Int(le::kDurationUs, 2);
  snapshot.Bool(le::kUseAsyncTts, true);
  proto::Writer annotation;
  annotation.String(pf::debug_annotation::kName, "snapshot");
  annotation.String(pf::debug_annotation::kStringValue, "{}");
  proto::Writer object = LegacyEvent("LayerTree", 'O', std::nullopt, snapshot);
  object.Message(te::kDebugAnnotations, annotation);
  proto::Writer unscoped_scope;
  unscoped_scope.String(le::kIdScope, "ignored without an id");
  const std::string trace = Trace({
      Packet(1, 0).Field(tp::kThreadDescriptor, LegacyThread(8, 9, 0)),
      Packet(1, 100).Event(object),
      Packet(1, 200).Event(LegacyEvent("num_cpus", 'M', std::nullopt, unscoped_scope)),
  });
  EXPECT_THAT(Rows(trace, "SELECT count(*) FROM slice"), ElementsAre("0"));
  EXPECT_THAT(Rows(trace, "SELECT r.ts, r.name, t.tid, a.key, a.display_value "
                          "FROM __intrinsic_chrome_raw r JOIN thread t USING (utid) "
                          "JOIN args a USING (arg_set_id) ORDER BY r.ts, a.id"),
              ElementsAre(R"(100,"track_event.legacy_event",9,"legacy_event.category","cat")",
                          R"(100,"track_event.legacy_event",9,"legacy_event.name","LayerTree")",
                          R"(100,"track_event.legacy_event",9,"legacy_event.phase","O")",
                          R"(100,"track_event.legacy_event",9,"legacy_event.duration_ns","2000")",
                          R"(100,"track_event.legacy_event",9,"legacy_event.use_async_tts","true")",
                          R"(100,"track_event.legacy_event",9,"legacy_event.unscoped_id","31")",
                          R"(100,"track_event.legacy_event",9,"legacy_event.id_scope","cc::LayerTree")",
                          R"(100,"track_event.legacy_event",9,"debug.snapshot","{}")",
                          R"(200,"track_event.legacy_event",9,"legacy_event.category","cat")",
                          R"(200,"track_event.legacy_event",9,"legacy_event.name","num_cpus")",
                          R"(200,"track_event.legacy_event",9,"legacy_event.phase","M")"));
}

}  // namespace
}  // namespace tw::testing
