// TranslationTable packets: hashed Chrome names get their translation beside the hash, raw
// slice names are replaced by their deobfuscated forms — for the whole trace, wherever in the
// file the table packet is.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/trace/track_event/test_packets.h"

namespace tw::testing {
namespace {

using ::testing::ElementsAre;

namespace tt = pf::translation_table;

proto::Writer MapEntry(uint64_t key, std::string_view value) {
  proto::Writer e;
  e.Varint(1, key);
  e.String(2, value);
  return e;
}
proto::Writer MapEntry(std::string_view key, std::string_view value) {
  proto::Writer e;
  e.String(1, key);
  e.String(2, value);
  return e;
}

Packet TablePacket(uint32_t table_field, uint32_t map_field, const proto::Writer& entry) {
  proto::Writer table, translation;
  table.Message(map_field, entry);
  translation.Message(table_field, table);
  Packet p(2, std::nullopt);
  p.Field(tp::kTranslationTable, translation);
  return p;
}

constexpr uint32_t kChromeHistogramSample = 28;
constexpr uint32_t kChromeUserEvent = 25;  // ChromeUserEvent { action = 1; action_hash = 2 }

Packet HistogramInstant(int64_t ts, uint64_t name_hash) {
  proto::Writer sample;
  sample.Varint(1, name_hash);  // ChromeHistogramSample.name_hash
  proto::Writer e = Event(kInstant, "sample", 1);
  e.Message(kChromeHistogramSample, sample);
  Packet p(1, ts);
  p.Event(e);
  return p;
}

TEST(TranslationTables, HashesGainTheirNamesWhereverTheTableIs) {
  const std::string trace = Trace({
      Packet(1, 0).ClearedState().Descriptor(NamedTrack(1, "t")),
      HistogramInstant(10, 111),
      HistogramInstant(20, 999),  // not in the table: stays a bare hash
      // The table comes after the events it translates.
      TablePacket(tt::kChromeHistogram, 1, MapEntry(111, "Memory.Total")),
  });
  EXPECT_THAT(Rows(trace, "SELECT s.ts, a.key, a.display_value FROM slice s "
                          "JOIN args a USING (arg_set_id) ORDER BY s.ts, a.key"),
              ElementsAre(R"(10,"chrome_histogram_sample.name","Memory.Total")",
                          R"(10,"chrome_histogram_sample.name_hash","111")",
                          R"(20,"chrome_histogram_sample.name_hash","999")"));
}

TEST(TranslationTables, UserActionHashOfABegunSlice) {
  proto::Writer user;
  user.Varint(2, 7);  // ChromeUserEvent.action_hash
  proto::Writer begin = Event(kBegin, "action", 1);
  begin.Message(kChromeUserEvent, user);
  Packet b(1, 10);
  b.Event(begin);
  Packet e(1, 20);
  e.Event(Event(kEnd, "", 1));
  const std::string trace =
      Trace({TablePacket(tt::kChromeUserEvent, 1, MapEntry(7, "NewTab")),
             Packet(1, 0).ClearedState().Descriptor(NamedTrack(1, "t")), b, e});
  EXPECT_THAT(Rows(trace, "SELECT a.key, a.display_value FROM slice s "
                          "JOIN args a USING (arg_set_id) ORDER BY a.key"),
              ElementsAre(R"("chrome_user_event.action","NewTab")",
                          R"("chrome_user_event.action_hash","7")"));
}

TEST(TranslationTables, RawSliceNamesAreReplacedAndEndsStillMatch) {
  Packet b(1, 10);
  b.Event(Event(kBegin, "a.b.c", 1));
  Packet e(1, 20);
  e.Event(Event(kEnd, "a.b.c", 1));
  Packet other(1, 30);
  other.Event(Event(kInstant, "kept", 1));
  const std::string trace =
      Trace({Packet(1, 0).ClearedState().Descriptor(NamedTrack(1, "t")), b, e, other,
             TablePacket(tt::kSliceName, 1, MapEntry("a.b.c", "Renamed"))});
  EXPECT_THAT(Rows(trace, "SELECT ts, dur, name FROM slice ORDER BY ts"),
              ElementsAre(R"(10,10,"Renamed")", R"(30,0,"kept")"));
}

// Process-associated tracks are named through the process track name table: an explicit
// name, the slice name an unnamed track takes, a counter track's name; thread tracks are not.
TEST(TranslationTables, ProcessTrackNamesAreTranslated) {
  proto::Writer counter = NamedTrack(5, "raw.counter", 1);
  proto::Writer counter_details;
  counter.Message(td::kCounter, counter_details);
  Packet named_begin(1, 10), unnamed_begin(1, 20), value(1, 30), thread_begin(1, 40);
  named_begin.Event(Event(kBegin, "slice.kept", 2));
  unnamed_begin.Event(Event(kBegin, "raw.slice", 3));
  proto::Writer sample = Event(kCounter, "", 5);
  sample.Int(te::kCounterValue, 7);
  value.Event(sample);
  thread_begin.Event(Event(kBegin, "raw.slice", 4));
  proto::Writer table;
  for (auto [raw, name] : {std::pair<std::string_view, std::string_view>{"raw.track", "Track"},
                           {"raw.slice", "Slice"},
                           {"raw.counter", "Counter"}}) {
    table.Message(1, MapEntry(raw, name));
  }
  proto::Writer translation;
  translation.Message(tt::kProcessTrackName, table);
  Packet table_packet(2, std::nullopt);
  table_packet.Field(tp::kTranslationTable, translation);
  const std::string trace = Trace({
      table_packet,
      Packet(1, 0).ClearedState().Descriptor(ProcessTrack(1, 10, "proc")),
      Packet(1, 0).Descriptor(NamedTrack(2, "raw.track", 1)),
      Packet(1, 0).Descriptor(NamedTrack(3, "", 1)),
      Packet(1, 0).Descriptor(ThreadTrack(4, 10, 11, "raw.track")),
      Packet(1, 0).Descriptor(counter),
      named_begin, unnamed_begin, value, thread_begin,
  });
  EXPECT_THAT(Rows(trace, "SELECT name FROM process_track WHERE name IS NOT NULL UNION ALL "
                          "SELECT name FROM process_counter_track ORDER BY name"),
              ElementsAre(R"("Counter")", R"("Slice")", R"("Track")"));
  // The slices keep their own names (only the slice name table renames slices).
  EXPECT_THAT(Rows(trace, "SELECT name FROM slice ORDER BY ts"),
              ElementsAre(R"("slice.kept")", R"("raw.slice")", R"("raw.slice")"));
}

}  // namespace
}  // namespace tw::testing
