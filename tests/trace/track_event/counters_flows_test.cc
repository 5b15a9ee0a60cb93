// Counter tracks (units, multipliers, incremental values, extra counters) and flows.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/track_event/test_packets.h"

namespace tw::testing {
namespace {

using ::testing::ElementsAre;
namespace cd = pf::counter_descriptor;

proto::Writer CounterTrack(uint64_t uuid, std::string_view name, uint32_t unit,
                           int64_t multiplier, bool incremental, uint64_t parent = 0) {
  proto::Writer counter;
  if (unit) counter.Varint(cd::kUnit, unit);
  if (multiplier) counter.Int(cd::kUnitMultiplier, multiplier);
  if (incremental) counter.Bool(cd::kIsIncremental, true);
  proto::Writer d = NamedTrack(uuid, name, parent);
  d.Message(td::kCounter, counter);
  return d;
}

proto::Writer CounterEvent(uint64_t uuid, int64_t value) {
  proto::Writer e;
  e.Varint(te::kType, kCounter);
  e.Varint(te::kTrackUuid, uuid);
  e.Int(te::kCounterValue, value);
  return e;
}

TEST(TrackEventCounters, UnitAndMultiplier) {
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(CounterTrack(5, "mem", pf::counter_unit::kSizeBytes, 1024, false)),
      Packet(1, 10).Event(CounterEvent(5, 2)),
  });
  EXPECT_THAT(Rows(trace, "SELECT t.name, t.unit, c.ts, c.value FROM counter c "
                          "JOIN counter_track t ON c.track_id = t.id"),
              ElementsAre(R"("mem","bytes",10,2048.000000)"));
}

TEST(TrackEventCounters, IncrementalValuesRestartWhenStateIsCleared) {
  const std::string trace = Trace({
      Packet(1, 0).ClearedState().Descriptor(CounterTrack(5, "c", 0, 0, true)),
      Packet(1, 10).Event(CounterEvent(5, 100)),
      Packet(1, 20).Event(CounterEvent(5, 5)),
      Packet(1, 30).ClearedState().Event(CounterEvent(5, 7)),
  });
  EXPECT_THAT(Rows(trace, "SELECT ts, value FROM counter ORDER BY ts"),
              ElementsAre("10,100.000000", "20,105.000000", "30,7.000000"));
}

TEST(TrackEventCounters, ThreadTimeExtraCounterFillsSliceThreadTs) {
  proto::Writer tt_counter;
  tt_counter.Varint(cd::kType, pf::builtin_counter_type::kThreadTimeNs);
  proto::Writer tt = NamedTrack(20, "", 1);
  tt.Message(td::kCounter, tt_counter);
  proto::Writer begin = Event(kBegin, "s", 1);
  begin.Varint(te::kExtraCounterTrackUuids, 20);
  begin.Int(te::kExtraCounterValues, 500);
  proto::Writer end = Event(kEnd, "", 1, "");
  end.Varint(te::kExtraCounterTrackUuids, 20);
  end.Int(te::kExtraCounterValues, 800);
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(ThreadTrack(1, 3, 4, "t")),
      Packet(1, 0).Descriptor(tt),
      Packet(1, 100).Event(begin),
      Packet(1, 200).Event(end),
  });
  EXPECT_THAT(Rows(trace, "SELECT ts, dur, thread_ts, thread_dur FROM slice"),
              ElementsAre("100,100,500,300"));
  EXPECT_THAT(Rows(trace, "SELECT t.name, t.unit, c.value FROM counter c "
                          "JOIN thread_counter_track t ON c.track_id = t.id ORDER BY c.ts"),
              ElementsAre(R"("thread_time","ns",500.000000)", R"("thread_time","ns",800.000000)"));
}

TEST(TrackEventCounters, CounterOnUnknownTrackIsDropped) {
  const std::string trace = Trace({Packet(1, 10).Event(CounterEvent(77, 1))});
  EXPECT_THAT(Rows(trace, "SELECT count(*) FROM counter"), ElementsAre("0"));
  EXPECT_THAT(Rows(trace, "SELECT value FROM stats "
                          "WHERE name = 'track_event_counter_invalid_track_uuid'"),
              ElementsAre("1"));
}

TEST(TrackEventFlows, FlowIdsLinkSlicesAndTerminate) {
  proto::Writer a = Event(kInstant, "a", 1);
  a.Fixed64(te::kFlowIds, 9);
  proto::Writer b = Event(kInstant, "b", 2);
  b.Fixed64(te::kFlowIds, 9);
  proto::Writer c = Event(kInstant, "c", 1);
  c.Fixed64(te::kTerminatingFlowIds, 9);
  proto::Writer d = Event(kInstant, "d", 2);
  d.Fixed64(te::kTerminatingFlowIds, 9);  // already terminated: no flow
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(NamedTrack(1, "t1")),
      Packet(1, 0).Descriptor(NamedTrack(2, "t2")),
      Packet(1, 10).Event(a),
      Packet(1, 20).Event(b),
      Packet(1, 30).Event(c),
      Packet(1, 40).Event(d),
  });
  EXPECT_THAT(Rows(trace, "SELECT o.name, i.name, f.trace_id FROM flow f "
                          "JOIN slice o ON f.slice_out = o.id JOIN slice i ON f.slice_in = i.id "
                          "ORDER BY f.id"),
              ElementsAre(R"("a","b",9)", R"("b","c",9)"));
}

TEST(TrackEventFlows, ArrowPointsForwardInTime) {
  // The flow id is seen on the end of the earlier slice after the later slice began.
  proto::Writer b_begin = Event(kBegin, "later", 2);
  b_begin.Fixed64(te::kFlowIds, 4);
  proto::Writer a_end = Event(kEnd, "", 1, "");
  a_end.Fixed64(te::kFlowIds, 4);
  const std::string trace = Trace({
      Packet(1, 10).Event(Event(kBegin, "earlier", 1)),
      Packet(1, 20).Event(b_begin),
      Packet(1, 30).Event(Event(kEnd, "", 2, "")),
      Packet(1, 40).Event(a_end),
  });
  EXPECT_THAT(Rows(trace, "SELECT o.name, i.name FROM flow f "
                          "JOIN slice o ON f.slice_out = o.id JOIN slice i ON f.slice_in = i.id"),
              ElementsAre(R"("earlier","later")"));
}

}  // namespace
}  // namespace tw::testing
