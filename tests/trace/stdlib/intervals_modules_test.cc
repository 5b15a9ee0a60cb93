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

}  // namespace
}  // namespace tw
