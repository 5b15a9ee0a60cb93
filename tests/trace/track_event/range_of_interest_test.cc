// TrackEventRangeOfInterest: the start is kept as metadata; with crop_track_events (what
// trace_processor's --crop-track-events does) track events before it are dropped and counted.

#include <gtest/gtest.h>

#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"
#include "tests/trace/track_event/test_packets.h"

namespace tw::testing {
namespace {

using stdlib_testing::Table;

Packet RangeOfInterest(std::optional<int64_t> start_us) {
  proto::Writer range;
  if (start_us) range.Int(1, *start_us);
  Packet p(1, 0);
  p.Field(tp::kTrackEventRangeOfInterest, range);
  return p;
}

Packet InstantAt(int64_t ts, std::string_view name) {
  Packet p(1, ts);
  p.Event(Event(kInstant, name, 1));
  return p;
}

std::string TraceWithRange(std::optional<int64_t> start_us) {
  return Trace({Packet(1, 0).ClearedState().Descriptor(NamedTrack(1, "t")),
                RangeOfInterest(start_us), InstantAt(10000, "before"),
                InstantAt(20000, "at start"), InstantAt(30000, "after")});
}

Table Query(std::string_view trace, bool crop, std::string_view sql) {
  LoadOptions options;
  options.crop_track_events = crop;
  auto t = LoadTraceBytes(trace, options);
  EXPECT_TRUE(t.ok()) << t.status();
  if (!t.ok()) return {};
  return stdlib_testing::Rows((*t)->db(), sql);
}

TEST(RangeOfInterest, CropDropsEarlierTrackEvents) {
  const std::string trace = TraceWithRange(20);
  EXPECT_EQ(Query(trace, true, "SELECT name FROM slice ORDER BY ts"),
            (Table{{"at start"}, {"after"}}));
  EXPECT_EQ(Query(trace, true,
                  "SELECT value FROM stats "
                  "WHERE name = 'track_event_dropped_packets_outside_of_range_of_interest'"),
            (Table{{"1"}}));
  EXPECT_EQ(Query(trace, true,
                  "SELECT int_value FROM metadata WHERE name = 'range_of_interest_start_us'"),
            (Table{{"20"}}));
}

TEST(RangeOfInterest, WithoutCropEverythingStays) {
  EXPECT_EQ(Query(TraceWithRange(20), false, "SELECT COUNT(*) FROM slice"), (Table{{"3"}}));
}

TEST(RangeOfInterest, MissingStartIsCountedAndCropsNothing) {
  const std::string trace = TraceWithRange(std::nullopt);
  EXPECT_EQ(Query(trace, true, "SELECT COUNT(*) FROM slice"), (Table{{"3"}}));
  EXPECT_EQ(Query(trace, true,
                  "SELECT value FROM stats "
                  "WHERE name = 'track_event_range_of_interest_missing_start_us'"),
            (Table{{"1"}}));
}

}  // namespace
}  // namespace tw::testing
