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

}  // namespace
}  // namespace tw
