// The stdlib's interval intersection (_interval_intersect!, _interval_intersect_with_col_names!
// in intervals/intersect.sql, expanded by interval_intersect_sql.h) over our own tables.

#include "libs/trace/query/interval_intersect_sql.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::HasSubstr;
using testing::Rows;
using Table = std::vector<std::vector<std::string>>;

class IntervalIntersectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = std::make_unique<TraceStorage>();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_TRUE(db_);
    Run("INCLUDE PERFETTO MODULE intervals.intersect;"
        // Frames and GC pauses on two threads; the pauses overlap each other across threads.
        "CREATE PERFETTO TABLE frames AS WITH v(id, ts, dur, utid) AS (VALUES"
        "  (1, 100, 50, 7), (2, 200, 50, 7), (3, 120, 100, 8)) SELECT * FROM v;"
        "CREATE PERFETTO TABLE pauses AS WITH v(id, ts, dur, utid) AS (VALUES"
        "  (10, 90, 20, 7), (11, 140, 80, 7), (12, 150, 10, 8), (13, 160, 0, 8)) SELECT * FROM v;"
        "CREATE PERFETTO TABLE marks AS WITH v(id, ts, dur) AS (VALUES"
        "  (20, 100, 0), (21, 150, 0), (22, 155, 0)) SELECT * FROM v;");
  }
  void Run(std::string_view sql) {
    auto r = db_->Execute(sql);
    ASSERT_TRUE(r.ok()) << r.status();
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(IntervalIntersectTest, EveryOverlappingPairClippedToTheirCommonPart) {
  EXPECT_EQ(Rows(*db_, "SELECT ts, dur, id_0, id_1 FROM _interval_intersect!((frames, pauses), ())"
                       " ORDER BY ts, id_0, id_1"),
            (Table{{"100", "10", "1", "10"},
                   {"140", "10", "1", "11"},
                   {"140", "80", "3", "11"},
                   {"150", "10", "3", "12"},
                   {"160", "0", "3", "13"},
                   {"200", "20", "2", "11"}}));
}

TEST_F(IntervalIntersectTest, PartitionColumnsMustMatchAndAreReturned) {
  EXPECT_EQ(Rows(*db_, "SELECT ts, dur, id_0, id_1, utid FROM "
                       "_interval_intersect!((frames, pauses), (utid)) ORDER BY ts"),
            (Table{{"100", "10", "1", "10", "7"},
                   {"140", "10", "1", "11", "7"},
                   {"150", "10", "3", "12", "8"},
                   {"160", "0", "3", "13", "8"},
                   {"200", "20", "2", "11", "7"}}));
}

TEST_F(IntervalIntersectTest, PointsMeetWhatContainsThemButNotWhatEndsAtThem) {
  // Mark 21 at 150 is where frame 1 ends: outside it; inside pause 11 [140, 220).
  EXPECT_EQ(Rows(*db_, "SELECT ts, dur, id_0, id_1 FROM _interval_intersect!((marks, frames), ())"
                       " ORDER BY ts, id_1"),
            (Table{{"100", "0", "20", "1"}, {"150", "0", "21", "3"}, {"155", "0", "22", "3"}}));
  Run("CREATE PERFETTO TABLE more_marks AS WITH v(id, ts, dur) AS "
      "(VALUES (30, 155, 0), (31, 156, 0)) SELECT * FROM v");
  EXPECT_EQ(Rows(*db_, "SELECT ts, id_0, id_1 FROM _interval_intersect!((marks, more_marks), ())"),
            (Table{{"155", "22", "30"}}));
}

TEST_F(IntervalIntersectTest, ThreeTablesShareOnePoint) {
  EXPECT_EQ(Rows(*db_, "SELECT ts, dur, id_0, id_1, id_2 FROM "
                       "_interval_intersect!((frames, pauses, marks), ()) ORDER BY ts, id_0, id_1"),
            (Table{{"100", "0", "1", "10", "20"},
                   {"150", "0", "3", "11", "21"},
                   {"150", "0", "3", "12", "21"},
                   {"155", "0", "3", "11", "22"},
                   {"155", "0", "3", "12", "22"}}));
}

TEST_F(IntervalIntersectTest, CustomColumnNamesWinOverSameNamedColumns) {
  // `ts` exists in the first table but is not its start: start_ns is.
  Run("CREATE PERFETTO TABLE jobs AS WITH v(job, ts, start_ns, length) AS "
      "(VALUES (5, 999, 100, 30)) SELECT * FROM v");
  EXPECT_EQ(Rows(*db_, "SELECT ts, dur, id_0, id_1 FROM _interval_intersect_with_col_names!("
                       "jobs, job, start_ns, length, pauses, id, ts, dur, ()) ORDER BY ts"),
            (Table{{"100", "10", "5", "10"}}));
}

TEST_F(IntervalIntersectTest, AnEmptyTableGivesNoRowsAndOneTableIsAnError) {
  EXPECT_TRUE(Rows(*db_, "SELECT * FROM _interval_intersect!((frames, "
                         "(SELECT * FROM pauses WHERE 0)), ())")
                  .empty());
  auto r = db_->Execute("SELECT * FROM _interval_intersect!((frames), ())");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("at least two tables"));
}

TEST_F(IntervalIntersectTest, NullAndStringPartitionValuesMatchByValue) {
  // As trace_processor partitions: NULL is a value like any other, so NULL meets NULL.
  EXPECT_EQ(Rows(*db_, "WITH a(id, ts, dur, k) AS (VALUES (1, 0, 10, NULL), (2, 0, 10, 'x'), "
                       "(3, 0, 10, 'y')), b(id, ts, dur, k) AS (VALUES (7, 5, 10, NULL), "
                       "(8, 5, 10, 'x'), (9, 5, 10, 'z')) "
                       "SELECT ts, dur, id_0, id_1, k FROM _interval_intersect!((a, b), (k)) "
                       "ORDER BY id_0"),
            (Table{{"5", "5", "1", "7", "NULL"}, {"5", "5", "2", "8", "x"}}));
}

TEST_F(IntervalIntersectTest, TablesFromAWithClauseAndSeveralPartitionColumns) {
  EXPECT_EQ(Rows(*db_, "WITH f AS (SELECT id, ts, dur, utid, utid % 2 AS odd FROM frames), "
                       "p AS (SELECT id, ts, dur, utid, utid % 2 AS odd FROM pauses) "
                       "SELECT ts, id_0, id_1, utid, odd FROM "
                       "_interval_intersect!((f, p), (utid, odd)) ORDER BY ts, id_0"),
            (Table{{"100", "1", "10", "7", "1"},
                   {"140", "1", "11", "7", "1"},
                   {"150", "3", "12", "8", "0"},
                   {"160", "3", "13", "8", "0"},
                   {"200", "2", "11", "7", "1"}}));
}

TEST_F(IntervalIntersectTest, NegativeDurationsAndNonIntegerIdsAreErrors) {
  auto r = db_->Execute(
      "SELECT * FROM _interval_intersect!((frames, (SELECT 1 AS id, 0 AS ts, -1 AS dur)), ())");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("dur must not be negative"));
  r = db_->Execute(
      "SELECT * FROM _interval_intersect!((frames, (SELECT 'a' AS id, 0 AS ts, 1 AS dur)), ())");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("id must be an integer"));
}

TEST_F(IntervalIntersectTest, ManyIntervalsWithoutPartitionsMeetOnlyTheirNeighbours) {
  // 5000 intervals per table, each meeting exactly one of the other's: the sweep finds the
  // 5000 pairs (a quadratic join would compare 25 million).
  Run("CREATE PERFETTO TABLE many_a AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL "
      "SELECT i + 1 FROM n WHERE i < 4999) SELECT i AS id, i * 10 AS ts, 5 AS dur FROM n;"
      "CREATE PERFETTO TABLE many_b AS SELECT id, ts + 3 AS ts, 4 AS dur FROM many_a;");
  EXPECT_EQ(Rows(*db_, "SELECT COUNT(*), SUM(dur), SUM(id_0 = id_1) FROM "
                       "_interval_intersect!((many_a, many_b), ())"),
            (Table{{"5000", "10000", "5000"}}));
}

}  // namespace
}  // namespace tw
