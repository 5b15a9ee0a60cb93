// intervals.create_intervals and intervals.fill_gaps over our own tables.

#include "gtest/gtest.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

class IntervalsModulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = std::make_unique<TraceStorage>();
    storage_->ExtendBounds(1000);
    storage_->ExtendBounds(5000);
    db_ = stdlib_testing::OpenOrDie(storage_.get());
    ASSERT_TRUE(db_);
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(IntervalsModulesTest, CreateIntervalsPairsEachStartWithTheFirstLaterEnd) {
  EXPECT_EQ(Rows(*db_, R"(
      INCLUDE PERFETTO MODULE intervals.create_intervals;
      WITH
        lock_taken(ts) AS (VALUES (1400), (1000), (2000), (3000), (1400)),
        lock_released(ts) AS (VALUES (1000), (1500), (2600))
      SELECT * FROM _interval_create!(lock_taken, lock_released))"),
            // 1000's end is 1500, not the end at 1000 itself; 3000 has no end after it.
            (Table{{"1000", "500"}, {"1400", "100"}, {"1400", "100"}, {"2000", "600"}}));
}

TEST_F(IntervalsModulesTest, CreateIntervalsWithNoEndsIsEmpty) {
  EXPECT_TRUE(Rows(*db_, R"(
      INCLUDE PERFETTO MODULE intervals.create_intervals;
      SELECT * FROM _interval_create!((SELECT 10 AS ts), (SELECT 5 AS ts WHERE 0)))")
                  .empty());
}

TEST_F(IntervalsModulesTest, FillGapsCoversEveryGroupFromTraceStartToEnd) {
  EXPECT_EQ(Rows(*db_, R"(
      INCLUDE PERFETTO MODULE intervals.fill_gaps;
      CREATE PERFETTO TABLE screen AS
        WITH v(ts, dur, display, state, brightness) AS (VALUES
          (1000, 500, 0, 'on', 80), (2000, 1000, 0, 'dim', 10), (2500, 2500, 1, 'on', 50),
          (NULL, NULL, 2, NULL, NULL))
        SELECT * FROM v;
      SELECT ts, dur, display, state, brightness
      FROM _intervals_fill_gaps!((display), (state, brightness), screen)
      ORDER BY display, ts)"),
            (Table{{"1000", "500", "0", "on", "80"},
                   {"1500", "500", "0", "NULL", "NULL"},
                   {"2000", "1000", "0", "dim", "10"},
                   {"3000", "2000", "0", "NULL", "NULL"},
                   {"1000", "1500", "1", "NULL", "NULL"},
                   {"2500", "2500", "1", "on", "50"},
                   {"1000", "4000", "2", "NULL", "NULL"}}));
}

TEST_F(IntervalsModulesTest, FillGapsWithoutGroupsAndOnAnEmptyTable) {
  EXPECT_EQ(Rows(*db_, R"(
      INCLUDE PERFETTO MODULE intervals.fill_gaps;
      SELECT ts, dur, level FROM _intervals_fill_gaps!(
        (NULL), (level), (SELECT 4000 AS ts, 1000 AS dur, 3 AS level)) ORDER BY ts)"),
            (Table{{"1000", "3000", "NULL"}, {"4000", "1000", "3"}}));
  EXPECT_EQ(Rows(*db_, R"(
      SELECT ts, dur, display, level FROM _intervals_fill_gaps!(
        (display), (level), (SELECT 1 AS ts, 1 AS dur, 1 AS display, 1 AS level WHERE 0)))"),
            (Table{{"1000", "4000", "NULL", "NULL"}}));
}

TEST_F(IntervalsModulesTest, SelfIntersectCutsAtEveryBoundary) {
  EXPECT_EQ(Rows(*db_, R"(
      INCLUDE PERFETTO MODULE intervals.intersect;
      WITH locks(id, ts, dur) AS (VALUES (7, 1000, 300), (8, 1100, 300), (9, 2000, 0))
      SELECT ts, dur, group_id, id, interval_ends_at_ts FROM interval_self_intersect!(locks)
      ORDER BY ts, id)"),
            (Table{{"1000", "100", "1", "7", "0"},
                   {"1100", "200", "2", "7", "0"},
                   {"1100", "200", "2", "8", "0"},
                   {"1300", "100", "3", "7", "1"},
                   {"1300", "100", "3", "8", "0"},
                   {"1400", "600", "4", "8", "1"},
                   {"2000", "0", "5", "9", "1"}}));
}

TEST_F(IntervalsModulesTest, OverlapInTableReadsAsAValueOrARow) {
  EXPECT_EQ(Rows(*db_, R"(
      INCLUDE PERFETTO MODULE intervals.overlap;
      WITH a(ts, dur) AS (VALUES (0, 10), (10, 5)), b(ts, dur) AS (VALUES (0, 10), (9, 5))
      SELECT (SELECT has_overlaps FROM _intervals_overlap_in_table!(a)),
             _intervals_overlap_in_table!(b))"),
            (Table{{"0", "1"}}));
}

TEST_F(IntervalsModulesTest, FlattenAttributesEachPieceToTheInnermostInterval) {
  // Root 1 [1000, 2000): child 10 [1100, 1500) holding 11 [1200, 1300); child 12 [1600, 1600)
  // takes no time but still cuts its parent's piece. Root 2 [3000, 3100) has no child.
  EXPECT_EQ(Rows(*db_, R"(
      INCLUDE PERFETTO MODULE intervals.overlap;
      WITH
        roots(id, ts, dur) AS (VALUES (1, 1000, 1000), (2, 3000, 100)),
        children(root_id, id, parent_id, ts, dur) AS (VALUES
          (1, 10, 1, 1100, 400), (1, 11, 10, 1200, 100), (1, 12, 1, 1600, 0))
      SELECT root_id, id, ts, dur
      FROM _intervals_flatten!(_intervals_merge_root_and_children!(roots, children)))"),
            (Table{{"1", "1", "1000", "100"},
                   {"1", "10", "1100", "100"},
                   {"1", "11", "1200", "100"},
                   {"1", "10", "1300", "200"},
                   {"1", "1", "1500", "100"},
                   {"1", "1", "1600", "400"},
                   {"2", "2", "3000", "100"}}));
}

TEST_F(IntervalsModulesTest, MergeByIntersectionFindsRootsBySharedKeyAndTime) {
  EXPECT_EQ(Rows(*db_, R"(
      INCLUDE PERFETTO MODULE intervals.overlap;
      WITH
        roots(id, ts, dur, utid) AS (VALUES (1, 1000, 1000, 5), (2, 1000, 1000, 6),
                                            (3, 4000, 100, 5)),
        children(id, parent_id, ts, dur, utid) AS (VALUES (10, 1, 1200, 100, 5),
                                                          (11, 2, 3000, 10, 6))
      SELECT root_id, id, ts, dur FROM _intervals_flatten!(
        _intervals_merge_root_and_children_by_intersection!(roots, children, utid)))"),
            // Root 2's child lies outside it; root 3 has none: both are left out.
            (Table{{"1", "1", "1000", "200"},
                   {"1", "10", "1200", "100"},
                   {"1", "1", "1300", "700"}}));
}

}  // namespace
}  // namespace tw
