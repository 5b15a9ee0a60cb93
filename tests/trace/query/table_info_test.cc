// perfetto_table_info: how each column of a CREATE PERFETTO TABLE would be stored.

#include "libs/trace/query/table_info.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class TableInfoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = std::make_unique<TraceStorage>();
    db_ = testing::OpenOrDie(storage_.get());
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(TableInfoTest, TypesNullabilityAndSortOrderFromTheValues) {
  ASSERT_TRUE(db_->Execute(R"(
    CREATE PERFETTO TABLE widgets AS
    SELECT * FROM (VALUES
      (0, 5, -1, 1.5, 'a', 7, NULL, 10000000000),
      (1, 5, 3, 2.5, 'b', NULL, NULL, 1),
      (2, 2, 4, 0.5, 'c', 9, NULL, 2))
    )").ok());
  EXPECT_THAT(
      testing::Rows(*db_, "SELECT id, name, col_type, nullable, sorted "
                          "FROM perfetto_table_info('widgets')"),
      ElementsAre(ElementsAre("0", "column1", "id", "0", "0"),
                  ElementsAre("1", "column2", "uint32", "0", "3"),
                  ElementsAre("2", "column3", "int32", "0", "2"),
                  ElementsAre("3", "column4", "double", "0", "3"),
                  ElementsAre("4", "column5", "string", "0", "2"),
                  ElementsAre("5", "column6", "uint32", "1", "3"),
                  ElementsAre("6", "column7", "uint32", "1", "3"),
                  ElementsAre("7", "column8", "int64", "0", "3"),
                  ElementsAre("8", "_auto_id", "id", "0", "0")));
}

TEST_F(TableInfoTest, SetIdSortedIntegers) {
  ASSERT_TRUE(db_->Execute("CREATE PERFETTO TABLE t AS "
                           "SELECT * FROM (VALUES (0), (0), (2), (2), (4))").ok());
  EXPECT_EQ(testing::Scalar(*db_, "SELECT col_type || ' ' || sorted FROM perfetto_table_info('t') "
                                  "WHERE name = 'column1'"),
            "uint32 1");
}

TEST_F(TableInfoTest, UnknownTablesAndViewsAreErrors) {
  ASSERT_TRUE(db_->Execute("CREATE PERFETTO VIEW v AS SELECT 1 AS x").ok());
  EXPECT_THAT(db_->Execute("SELECT * FROM perfetto_table_info('v')").status().message(),
              HasSubstr("Perfetto table 'v' not found."));
  EXPECT_THAT(db_->Execute("SELECT * FROM perfetto_table_info('nope')").status().message(),
              HasSubstr("Perfetto table 'nope' not found."));
}

}  // namespace
}  // namespace tw
