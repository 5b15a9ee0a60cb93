// viz.summary.track_event over hand-built track-event tracks.

#include "gtest/gtest.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;
using stdlib_testing::TraceBuilder;

class VizTrackEventTest : public ::testing::Test {
 protected:
  // A global track-event track; `source` args are its descriptor's ordering fields.
  uint32_t Track(std::string_view name, std::optional<uint32_t> parent,
                 std::optional<std::string_view> child_ordering = {},
                 std::optional<int64_t> rank = {}, std::optional<int64_t> group = {}) {
    TraceStorage& s = b_.s;
    const uint32_t id = s.track.Insert({.name = s.Intern(name),
                                        .type = s.Intern("global_track_event"),
                                        .event_type = s.Intern("slice")});
    if (parent) s.track.parent_id.Set(id, *parent);
    if (group) s.track.track_group_id.Set(id, *group);
    if (child_ordering || rank) {
      const uint32_t set = next_arg_set_++;
      auto arg = [&](std::string_view key, std::optional<int64_t> i,
                     std::optional<std::string_view> str) {
        s.args.Insert({.arg_set_id = set,
                       .flat_key = s.Intern(key),
                       .key = s.Intern(key),
                       .int_value = i,
                       .string_value = str ? s.Intern(*str) : kNullStringId,
                       .value_type = s.Intern(i ? "int" : "string")});
      };
      if (child_ordering) arg("child_ordering", std::nullopt, child_ordering);
      if (rank) arg("sibling_order_rank", rank, std::nullopt);
      s.track.source_arg_set_id.Set(id, set);
    }
    return id;
  }
  Table Ordered() {
    auto db = stdlib_testing::OpenOrDie(b_.storage.get());
    return Rows(*db, "INCLUDE PERFETTO MODULE viz.summary.track_event;"
                     "SELECT name, order_id, track_ids, has_data, has_children"
                     " FROM _track_event_tracks_ordered_groups ORDER BY parent_id, order_id");
  }
  TraceBuilder b_;
  uint32_t next_arg_set_ = 1;
};

TEST_F(VizTrackEventTest, SiblingsFollowTheirParentsOrdering) {
  const uint32_t by_rank = Track("by rank", {}, "explicit");
  const uint32_t by_time = Track("by time", {}, "chronological");
  Track("z", by_rank, {}, -5);
  Track("y", by_rank, {}, 10);
  Track("x", by_rank);  // no rank: 0
  const uint32_t late = Track("late", by_time);
  const uint32_t early = Track("early", by_time);
  b_.Slice(late, 500, 10, "work");
  b_.Slice(early, 100, 10, "work");
  EXPECT_EQ(Ordered(), (Table{{"by rank", "1", "0", "0", "1"},
                              {"by time", "2", "1", "0", "1"},
                              {"z", "1", "2", "0", "0"},
                              {"x", "2", "4", "0", "0"},
                              {"y", "3", "3", "0", "0"},
                              {"early", "1", "6", "1", "0"},
                              {"late", "2", "5", "1", "0"}}));
}

TEST_F(VizTrackEventTest, MergedTracksFormOneGroup) {
  Track("b", {}, {}, {}, 7);
  Track("b", {}, {}, {}, 7);
  Track("a", {});
  EXPECT_EQ(Ordered(), (Table{{"a", "1", "2", "0", "0"}, {"b", "2", "0,1", "0", "0"}}));
}

// A group has callstacks when any of its tracks has an event that carried one (the importer
// records those in track_event_callstacks).
TEST_F(VizTrackEventTest, HasCallstacksWhenAnyTrackOfTheGroupCarriesOne) {
  const uint32_t merged_a = Track("merged", {}, {}, {}, 3);
  const uint32_t merged_b = Track("merged", {}, {}, {}, 3);
  const uint32_t plain = Track("plain", {});
  b_.Slice(merged_a, 100, 10, "work");
  const uint32_t sampled = b_.Slice(merged_b, 200, 10, "sampled");
  b_.Slice(plain, 300, 10, "work");
  b_.s.track_event_callstacks.Insert({.slice_id = sampled, .track_id = merged_b});
  auto db = stdlib_testing::OpenOrDie(b_.storage.get());
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE viz.summary.track_event;"
                      "SELECT name, has_callstacks FROM _track_event_tracks_ordered_groups"
                      " ORDER BY name"),
            (Table{{"merged", "1"}, {"plain", "0"}}));
}

}  // namespace
}  // namespace tw
