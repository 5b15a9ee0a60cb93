// Corrupt track-event data must never crash the import: every byte of rich track-event payloads
// is flipped in turn (and every payload truncated) and the result loaded; events may be lost,
// and are counted in stats.

#include "gtest/gtest.h"
#include "tests/trace/track_event/test_packets.h"

namespace tw::testing {
namespace {

namespace da = pf::debug_annotation;
namespace le = pf::track_event_legacy_event;

// The payloads of a rich track-event trace: descriptors, interning, annotations, flows,
// counters, legacy fields and delta timestamps. Corruption is applied to these payloads (the
// packet framing and sequence ids stay intact, so the test exercises the track-event decoders
// rather than the packet splitter).
struct PayloadPacket {
  uint32_t sequence_id;
  std::optional<int64_t> ts;
  uint32_t field;
  std::string payload;
  bool cleared = false;
};

std::vector<PayloadPacket> RichPayloads() {
  proto::Writer nested_inner, nested, annotation, legacy, counter, counter_desc, interned, name;
  nested_inner.Int(da::kIntValue, 1);
  nested.String(da::kName, "arr");
  nested.Message(da::kArrayValues, nested_inner);
  annotation.String(da::kName, "dict");
  annotation.Message(da::kDictEntries, nested);
  legacy.Int(le::kPhase, 'X');
  legacy.Int(le::kDurationUs, 5);
  legacy.Varint(le::kBindId, 3);
  legacy.Varint(le::kFlowDirection, 2);
  counter.Bool(pf::counter_descriptor::kIsIncremental, true);
  counter_desc = NamedTrack(30, "ctr", 1);
  counter_desc.Message(td::kCounter, counter);
  name.Varint(pf::event_name::kIid, 1);
  name.String(pf::event_name::kName, "interned");
  interned.Message(pf::interned_data::kEventNames, name);

  proto::Writer with_args = Event(kBegin, "a", 2);
  with_args.Message(te::kDebugAnnotations, annotation);
  with_args.Fixed64(te::kFlowIds, 11);
  with_args.Varint(te::kExtraCounterTrackUuids, 30);
  with_args.Int(te::kExtraCounterValues, 4);
  proto::Writer legacy_event;
  legacy_event.Varint(te::kNameIid, 1);
  legacy_event.Message(te::kLegacyEvent, legacy);
  proto::Writer delta;
  delta.Int(te::kTimestampDeltaUs, 7);
  delta.Varint(te::kType, kInstant);
  proto::Writer thread_descriptor;
  thread_descriptor.Int(pf::thread_descriptor::kPid, 3);
  thread_descriptor.Int(pf::thread_descriptor::kTid, 4);

  return {
      {1, 0, tp::kTrackDescriptor, ThreadTrack(1, 3, 4, "t").data(), true},
      {1, 0, tp::kTrackDescriptor, NamedTrack(2, "child", 1).data()},
      {1, 0, tp::kTrackDescriptor, counter_desc.data()},
      {1, 5, tp::kThreadDescriptor, thread_descriptor.data()},
      {1, 6, tp::kInternedData, interned.data()},
      {1, 10, tp::kTrackEvent, with_args.data()},
      {1, 20, tp::kTrackEvent, legacy_event.data()},
      {1, std::nullopt, tp::kTrackEvent, delta.data()},
      {1, 30, tp::kTrackEvent, Event(kEnd, "", 2, "").data()},
  };
}

std::string Build(const std::vector<PayloadPacket>& packets) {
  proto::Writer trace;
  for (const PayloadPacket& p : packets) {
    proto::Writer packet;
    packet.Varint(tp::kTrustedPacketSequenceId, p.sequence_id);
    if (p.ts) packet.Varint(tp::kTimestamp, static_cast<uint64_t>(*p.ts));
    if (p.cleared) packet.Bool(tp::kIncrementalStateCleared, true);
    packet.Bytes(p.field, p.payload);
    trace.Message(pf::trace::kPacket, packet);
  }
  return trace.Take();
}

TEST(TrackEventMalformedInput, EveryFlippedPayloadByteLoadsWithoutCrashing) {
  const std::vector<PayloadPacket> packets = RichPayloads();
  ASSERT_TRUE(LoadWithTrackEvents(Build(packets)).ok());
  for (size_t p = 0; p < packets.size(); ++p) {
    for (size_t i = 0; i < packets[p].payload.size(); ++i) {
      for (uint8_t mask : {0x01, 0x80, 0xff}) {
        std::vector<PayloadPacket> corrupt = packets;
        corrupt[p].payload[i] = static_cast<char>(corrupt[p].payload[i] ^ mask);
        auto loaded = LoadWithTrackEvents(Build(corrupt));
        ASSERT_TRUE(loaded.ok()) << loaded.status();
        EXPECT_TRUE((*loaded)->Query("SELECT count(*) FROM slice").ok());
      }
    }
  }
}

TEST(TrackEventMalformedInput, TruncatedPayloadsLoad) {
  const std::vector<PayloadPacket> packets = RichPayloads();
  for (size_t p = 0; p < packets.size(); ++p) {
    for (size_t n = 0; n < packets[p].payload.size(); ++n) {
      std::vector<PayloadPacket> corrupt = packets;
      corrupt[p].payload.resize(n);
      EXPECT_TRUE(LoadWithTrackEvents(Build(corrupt)).ok());
    }
  }
}

}  // namespace
}  // namespace tw::testing
