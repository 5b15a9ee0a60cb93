// Track-event callstacks: inline (TrackEvent.callstack) and interned (callstack_iid) stacks
// become stack_profile rows, linked to their slices by __intrinsic_track_event_callstacks.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/track_event/test_packets.h"

namespace tw::testing {
namespace {

using ::testing::ElementsAre;
namespace id = pf::interned_data;
namespace inl = pf::track_event_inline_callstack_frame;

proto::Writer InlineStack(std::vector<std::tuple<std::string, std::string, uint32_t>> frames) {
  proto::Writer stack;
  for (const auto& [function, file, line] : frames) {
    proto::Writer f;
    f.String(inl::kFunctionName, function);
    if (!file.empty()) f.String(inl::kSourceFile, file);
    if (line) f.Varint(inl::kLineNumber, line);
    stack.Message(pf::track_event_inline_callstack::kFrames, f);
  }
  return stack;
}

proto::Writer InternedString(uint64_t iid, std::string_view s) {
  proto::Writer w;
  w.Varint(pf::interned_string::kIid, iid);
  w.String(pf::interned_string::kStr, s);
  return w;
}

// One mapping (/lib/a.so, raw build id "ab") with frames 1 (Outer) and 2 (Inner); callstack 7
// is Outer → Inner.
proto::Writer InternedStack() {
  proto::Writer data;
  data.Message(id::kMappingPaths, InternedString(1, "/lib/a.so"));
  data.Message(id::kBuildIds, InternedString(1, "ab"));
  data.Message(id::kFunctionNames, InternedString(1, "Outer"));
  data.Message(id::kFunctionNames, InternedString(2, "Inner"));
  proto::Writer mapping;
  mapping.Varint(pf::profile_mapping::kIid, 1);
  mapping.Varint(pf::profile_mapping::kBuildId, 1);
  mapping.Varint(pf::profile_mapping::kStart, 4096);
  mapping.Varint(pf::profile_mapping::kEnd, 8192);
  mapping.Varint(pf::profile_mapping::kPathStringIds, 1);
  data.Message(id::kMappings, mapping);
  for (uint64_t f : {1, 2}) {
    proto::Writer frame;
    frame.Varint(pf::profile_frame::kIid, f);
    frame.Varint(pf::profile_frame::kFunctionNameId, f);
    frame.Varint(pf::profile_frame::kMappingId, 1);
    frame.Varint(pf::profile_frame::kRelPc, 16 * f);
    data.Message(id::kFrames, frame);
  }
  proto::Writer stack;
  stack.Varint(pf::profile_callstack::kIid, 7);
  stack.Varint(pf::profile_callstack::kFrameIds, 1);
  stack.Varint(pf::profile_callstack::kFrameIds, 2);
  data.Message(id::kCallstacks, stack);
  return data;
}

std::string CallstackTrace() {
  proto::Writer a = Event(kBegin, "a", 1);
  a.Message(te::kCallstack, InlineStack({{"main", "main.cc", 10}, {"leaf", "leaf.cc", 42}}));
  a.Double(te::kCallstackWeight, 2.5);
  proto::Writer b = Event(kInstant, "b", 1);
  b.Message(te::kCallstack, InlineStack({{"main", "main.cc", 10}, {"leaf", "leaf.cc", 42}}));
  proto::Writer c = Event(kBegin, "c", 1);
  c.Varint(te::kCallstackIid, 7);
  proto::Writer c_end = Event(kEnd, "", 1);
  c_end.Varint(te::kCallstackIid, 7);
  c_end.Double(te::kCallstackWeight, 4);
  return Trace({Packet(1, 0).ClearedState().Descriptor(ThreadTrack(1, 5, 6, "t")),
                Packet(1, 10).Event(a), Packet(1, 20).Event(Event(kEnd, "", 1)),
                Packet(1, 30).Event(b), Packet(1, 40).Field(tp::kInternedData, InternedStack()),
                Packet(1, 50).Event(c), Packet(1, 60).Event(c_end)});
}

TEST(TrackEventCallstacks, EventsLinkTheirSliceToTheLeafCallsite) {
  EXPECT_THAT(
      Rows(CallstackTrace(),
           "SELECT s.name, f.name, sym.source_file, sym.line_number, cs.depth, t.weight, "
           "t.end_callsite_id IS NOT NULL, t.track_id = s.track_id "
           "FROM __intrinsic_track_event_callstacks t JOIN slice s ON s.id = t.slice_id "
           "JOIN stack_profile_callsite cs ON cs.id = COALESCE(t.callsite_id, t.end_callsite_id) "
           "JOIN stack_profile_frame f ON f.id = cs.frame_id "
           "LEFT JOIN stack_profile_symbol sym ON sym.symbol_set_id = f.symbol_set_id "
           "ORDER BY t.id"),
      ElementsAre(R"("a","leaf","leaf.cc",42,1,2.500000,0,1)",
                  R"("b","leaf","leaf.cc",42,1,"[NULL]",0,1)",
                  R"("c","Inner","[NULL]","[NULL]",1,"[NULL]",0,1)",
                  R"("c","Inner","[NULL]","[NULL]",1,4.000000,1,1)"));
}

TEST(TrackEventCallstacks, EqualStacksShareCallsitesAndFramesKnowTheirMappings) {
  const std::string trace = CallstackTrace();
  // Two inline frames + two interned frames, each callstack a chain of two callsites.
  EXPECT_THAT(Rows(trace, "SELECT COUNT(*) FROM stack_profile_frame"), ElementsAre("4"));
  EXPECT_THAT(Rows(trace, "SELECT COUNT(*) FROM stack_profile_callsite"), ElementsAre("4"));
  EXPECT_THAT(Rows(trace, "SELECT COUNT(DISTINCT callsite_id) FROM "
                          "__intrinsic_track_event_callstacks WHERE callsite_id IS NOT NULL"),
              ElementsAre("2"));
  EXPECT_THAT(Rows(trace, "SELECT m.name, m.build_id, m.start, m.end, f.rel_pc "
                          "FROM stack_profile_frame f JOIN stack_profile_mapping m "
                          "ON m.id = f.mapping ORDER BY f.id"),
              ElementsAre(R"("track_event_inline","",0,-1,0)",
                          R"("track_event_inline","",0,-1,0)",
                          R"("/lib/a.so","6162",4096,8192,16)",
                          R"("/lib/a.so","6162",4096,8192,32)"));
}

TEST(TrackEventCallstacks, AnUnknownCallstackIidIsAParserErrorAndKeepsTheSlice) {
  proto::Writer e = Event(kInstant, "x", 1);
  e.Varint(te::kCallstackIid, 99);
  const std::string trace =
      Trace({Packet(1, 0).ClearedState().Descriptor(ThreadTrack(1, 5, 6, "t")),
             Packet(1, 10).Event(e)});
  EXPECT_THAT(Rows(trace, "SELECT name FROM slice"), ElementsAre(R"("x")"));
  EXPECT_THAT(Rows(trace, "SELECT COUNT(*) FROM __intrinsic_track_event_callstacks"),
              ElementsAre("0"));
  EXPECT_THAT(Rows(trace, "SELECT value FROM stats WHERE name = 'track_event_parser_errors'"),
              ElementsAre("1"));
}

}  // namespace
}  // namespace tw::testing
