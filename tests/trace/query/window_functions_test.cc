// LAST_NON_NULL and INTERNAL_LAYOUT (window_functions.h) over our own tables.

#include "libs/trace/query/window_functions.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::HasSubstr;
using testing::Rows;
using Table = std::vector<std::vector<std::string>>;

class WindowFunctionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = std::make_unique<TraceStorage>();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_TRUE(db_);
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(WindowFunctionsTest, LastNonNullCarriesTheLatestValueForward) {
  EXPECT_EQ(Rows(*db_, "WITH v(i, x) AS (VALUES (1, NULL), (2, 'a'), (3, NULL), (4, 'b'), (5, NULL))"
                       " SELECT i, LAST_NON_NULL(x) OVER (ORDER BY i) FROM v"),
            (Table{{"1", "NULL"}, {"2", "a"}, {"3", "a"}, {"4", "b"}, {"5", "b"}}));
}

TEST_F(WindowFunctionsTest, LastNonNullRespectsSlidingFramesAndPartitions) {
  // Frame: the row before and this one.
  EXPECT_EQ(Rows(*db_, "WITH v(g, i, x) AS (VALUES (1, 1, 10), (1, 2, NULL), (1, 3, NULL),"
                       " (2, 1, NULL), (2, 2, 2.5))"
                       " SELECT g, i, LAST_NON_NULL(x) OVER (PARTITION BY g ORDER BY i"
                       " ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM v ORDER BY g, i"),
            (Table{{"1", "1", "10"}, {"1", "2", "10"}, {"1", "3", "NULL"},
                   {"2", "1", "NULL"}, {"2", "2", "2.500000"}}));
  // Frame: this row and the next two.
  EXPECT_EQ(Rows(*db_, "WITH v(i, x) AS (VALUES (1, 7), (2, NULL), (3, NULL), (4, NULL), (5, 9))"
                       " SELECT i, LAST_NON_NULL(x) OVER (ORDER BY i"
                       " ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING) FROM v"),
            (Table{{"1", "7"}, {"2", "NULL"}, {"3", "9"}, {"4", "9"}, {"5", "9"}}));
}

TEST_F(WindowFunctionsTest, InternalLayoutGivesOpenSpansDistinctDepths) {
  EXPECT_EQ(Rows(*db_, "WITH v(ts, dur) AS (VALUES (0, 10), (2, 3), (4, 20), (5, 0), (5, 1),"
                       " (12, -1), (30, 5), (31, 1))"
                       " SELECT ts, INTERNAL_LAYOUT(ts, dur) OVER (ORDER BY ts"
                       " ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM v"),
            // [0,10) d0; [2,5) d1; [4,24) d2; instant 5: [2,5) ended, d1; [5,6) d1 (the instant
            // ended at 5); 12 never ends: d0 free again; 30: d1 free (and d2 since 24).
            (Table{{"0", "0"}, {"2", "1"}, {"4", "2"}, {"5", "1"}, {"5", "1"}, {"12", "0"},
                   {"30", "1"}, {"31", "2"}}));
}

TEST_F(WindowFunctionsTest, InternalLayoutRejectsUnorderedRows) {
  auto r = db_->Execute("WITH v(ts, dur) AS (VALUES (5, 1), (1, 1))"
                        " SELECT INTERNAL_LAYOUT(ts, dur) OVER (ROWS BETWEEN UNBOUNDED PRECEDING"
                        " AND CURRENT ROW) FROM v");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("ordered by ts"));
}

}  // namespace
}  // namespace tw
