// TrackDescriptors: which thread/process a track belongs to, how tracks are named and nested.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/track_event/test_packets.h"

namespace tw::testing {
namespace {

using ::testing::ElementsAre;

TEST(TrackDescriptors, ThreadDescriptorNamesThreadAndHostsItsSlices) {
  const std::string trace = Trace({
      Packet(1, 0).ClearedState().Descriptor(ThreadTrack(1, 5, 7, "worker")).DefaultTrack(1),
      Packet(1, 0).Descriptor(ProcessTrack(2, 5, "app")),
      Packet(1, 100).Event(Event(kBegin, "outer")),
      Packet(1, 150).Event(Event(kInstant, "tick")),
      Packet(1, 300).Event(Event(kEnd, "")),
  });
  EXPECT_THAT(Rows(trace,
                   "SELECT s.name, s.ts, s.dur, s.depth, t.tid, t.name, p.pid, p.name "
                   "FROM slice s JOIN thread_track tt ON s.track_id = tt.id "
                   "JOIN thread t USING (utid) JOIN process p USING (upid) ORDER BY s.ts"),
              ElementsAre(R"("outer",100,200,0,7,"worker",5,"app")",
                          R"("tick",150,0,1,7,"worker",5,"app")"));
  // A root thread descriptor shares the thread's ordinary (unnamed) track.
  EXPECT_THAT(Rows(trace, "SELECT name, type FROM thread_track"),
              ElementsAre(R"("[NULL]","thread_execution")"));
}

TEST(TrackDescriptors, UnnamedTrackTakesFirstEventName) {
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(NamedTrack(10, "")),
      Packet(1, 100).Event(Event(kInstant, "first", 10)),
      Packet(1, 200).Event(Event(kInstant, "second", 10)),
  });
  EXPECT_THAT(Rows(trace, "SELECT DISTINCT t.name FROM slice s JOIN track t ON s.track_id = t.id"),
              ElementsAre(R"("first")"));
}

TEST(TrackDescriptors, ChildOfGlobalTrackNestsUnderIt) {
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(NamedTrack(1, "parent")),
      Packet(1, 0).Descriptor(NamedTrack(2, "child", 1)),
      Packet(1, 100).Event(Event(kInstant, "e", 2)),
  });
  EXPECT_THAT(Rows(trace,
                   "SELECT c.name, p.name FROM track c JOIN track p ON c.parent_id = p.id"),
              ElementsAre(R"("child","parent")"));
}

TEST(TrackDescriptors, OverlappingSlicesOfSameNamedSiblingsGetSeparateTracks) {
  // Two uuids named "req" under one process merge into one track while they do not overlap.
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(ProcessTrack(1, 9, "p")),
      Packet(1, 0).Descriptor(NamedTrack(2, "req", 1)),
      Packet(1, 0).Descriptor(NamedTrack(3, "req", 1)),
      Packet(1, 100).Event(Event(kBegin, "a", 2)),
      Packet(1, 150).Event(Event(kBegin, "b", 3)),  // overlaps "a": second track
      Packet(1, 200).Event(Event(kEnd, "", 2)),
      Packet(1, 250).Event(Event(kEnd, "", 3)),
      Packet(1, 300).Event(Event(kBegin, "c", 3)),  // reuses the track uuid 3 is bound to
      Packet(1, 400).Event(Event(kEnd, "", 3)),
  });
  EXPECT_THAT(Rows(trace,
                   "SELECT s.name, s.track_id = (SELECT track_id FROM slice WHERE name = 'a') "
                   "FROM slice s ORDER BY s.ts"),
              ElementsAre(R"("a",1)", R"("b",0)", R"("c",0)"));
  // Both tracks of the set are process tracks and share a track_group_id.
  EXPECT_THAT(Rows(trace, "SELECT count(*), count(DISTINCT t.track_group_id) FROM process_track "
                          "JOIN track t USING (id) WHERE t.name = 'req'"),
              ElementsAre("2,1"));
}

TEST(TrackDescriptors, SecondUuidForSameTidStartsNewThread) {
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(ThreadTrack(1, 5, 1, "old")),
      Packet(2, 1000).Descriptor(ThreadTrack(2, 5, 1, "new")),
      Packet(1, 100).Event(Event(kInstant, "on_old", 1)),
      Packet(2, 1100).Event(Event(kInstant, "on_new", 2)),
  });
  EXPECT_THAT(Rows(trace,
                   "SELECT s.name, t.name FROM slice s JOIN thread_track tt ON s.track_id = tt.id "
                   "JOIN thread t USING (utid) ORDER BY s.ts"),
              ElementsAre(R"("on_old","old")", R"("on_new","new")"));
}

TEST(TrackDescriptors, TrackArgsRecordOrderingAndFirstPacket) {
  proto::Writer parent = NamedTrack(1, "parent");
  parent.Varint(td::kChildOrdering, pf::child_tracks_ordering::kExplicit);
  proto::Writer child = NamedTrack(2, "child", 1);
  child.Int(td::kSiblingOrderRank, -3);
  const std::string trace = Trace({
      Packet(7, 0).FirstOnSequence().Descriptor(parent),
      Packet(7, 0).Descriptor(child),
      Packet(7, 10).Event(Event(kInstant, "e", 2)),
  });
  EXPECT_THAT(Rows(trace,
                   "SELECT name, extract_arg(source_arg_set_id, 'child_ordering'), "
                   "extract_arg(source_arg_set_id, 'sibling_order_rank'), "
                   "extract_arg(source_arg_set_id, 'has_first_packet_on_sequence') "
                   "FROM track ORDER BY name"),
              ElementsAre(R"("child","[NULL]",-3,1)", R"("parent","explicit","[NULL]",1)"));
}

TEST(TrackDescriptors, ConflictingReuseOfUuidIsCounted) {
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(ThreadTrack(1, 5, 1, "a")),
      Packet(1, 0).Descriptor(ThreadTrack(1, 5, 2, "b")),
  });
  EXPECT_THAT(Rows(trace, "SELECT value FROM stats "
                          "WHERE name = 'track_descriptor_conflicting_reservation'"),
              ElementsAre("1"));
}

TEST(TrackDescriptors, HierarchyLoopIsRejected) {
  const std::string trace = Trace({
      Packet(1, 0).Descriptor(NamedTrack(1, "a", 2)),
      Packet(1, 0).Descriptor(NamedTrack(2, "b", 1)),
      Packet(1, 10).Event(Event(kInstant, "e", 1)),
  });
  EXPECT_THAT(Rows(trace, "SELECT count(*) FROM slice"), ElementsAre("0"));
  EXPECT_THAT(Rows(trace, "SELECT value > 0 FROM stats "
                          "WHERE name = 'track_event_track_hierarchy_loop'"),
              ElementsAre("1"));
}

}  // namespace
}  // namespace tw::testing
