// The legacy statement functions (CREATE_FUNCTION, CREATE_VIEW_FUNCTION, IMPORT,
// EXPERIMENTAL_MEMOIZE), variadic DELEGATES TO functions and memoization, through a database.

#include "libs/trace/query/legacy_statement_functions.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::HasSubstr;
using testing::Rows;
using testing::Scalar;
using Table = std::vector<std::vector<std::string>>;

class LegacyStatementsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = testing::MakeSmallTrace();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_NE(db_, nullptr);
  }
  absl::Status Run(std::string_view sql) { return db_->Execute(sql).status(); }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST(LegacyStatementTextTest, StandsForCreateOrReplace) {
  EXPECT_EQ(LegacyCreateFunctionStatement("g(a LONG)", "LONG", "SELECT $a"),
            "CREATE OR REPLACE PERFETTO FUNCTION g(a LONG) RETURNS LONG AS SELECT $a");
  EXPECT_EQ(LegacyCreateViewFunctionStatement("g(a LONG)", "v LONG", "SELECT $a AS v"),
            "CREATE OR REPLACE PERFETTO FUNCTION g(a LONG) RETURNS TABLE(v LONG) AS SELECT $a AS v");
}

TEST_F(LegacyStatementsTest, CreateFunctionDefinesForTheNextStatements) {
  ASSERT_TRUE(Run("SELECT create_function('triple(n INT)', 'INT', 'SELECT $n * 3');"
                  "SELECT create_function('triple(n INT)', 'INT', 'SELECT $n * 3')")
                  .ok());  // defining it again replaces it
  EXPECT_EQ(Scalar(*db_, "SELECT triple(14)"), "42");
  // A function over the trace's tables, returning text.
  ASSERT_TRUE(Run("SELECT create_function('thread_called(utid INT)', 'STRING', "
                  "'SELECT name FROM thread WHERE utid = $utid')")
                  .ok());
  EXPECT_EQ(Scalar(*db_, "SELECT thread_called(1)"), "RenderThread");
}

TEST_F(LegacyStatementsTest, CreateViewFunctionDefinesATableFunction) {
  ASSERT_TRUE(Run("SELECT create_view_function('upto(n INT)', 'i INT, sq INT', "
                  "'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r "
                  "WHERE i < $n) SELECT i, i * i AS sq FROM r')")
                  .ok());
  EXPECT_EQ(Rows(*db_, "SELECT i, sq FROM upto(3)"),
            (Table{{"1", "1"}, {"2", "4"}, {"3", "9"}}));
}

TEST_F(LegacyStatementsTest, ImportIncludesAModule) {
  ASSERT_TRUE(Run("SELECT IMPORT('time.conversion')").ok());
  EXPECT_EQ(Scalar(*db_, "SELECT time_from_s(2)"), "2000000000");
  EXPECT_THAT(std::string(Run("SELECT IMPORT('no.such.module')").message()),
              HasSubstr("no.such.module"));
}

TEST_F(LegacyStatementsTest, BadCallsAreErrorsAndDefineNothing) {
  EXPECT_THAT(std::string(Run("SELECT create_function('f(x INT)', 'INT', 42)").message()),
              HasSubstr("must be a string"));
  EXPECT_FALSE(Run("SELECT create_function('f(x INT)', 'INT', 'SELECT nope')").ok());
  EXPECT_EQ(Run("SELECT f(1)").code(), absl::StatusCode::kInvalidArgument);
  // A statement that fails after a legacy call: the call's definition does not happen.
  EXPECT_FALSE(Run("SELECT create_function('h()', 'INT', 'SELECT 1'), no_such_column").ok());
  EXPECT_EQ(Run("SELECT h()").code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(LegacyStatementsTest, MemoizeMakesExponentialRecursionLinear) {
  // 2^n by two recursive calls per level: 2^45 calls without memoization.
  ASSERT_TRUE(Run("SELECT create_function('pow2(n INT)', 'INT', "
                  "'SELECT IIF($n = 0, 1, pow2($n - 1) + pow2($n - 1))');"
                  "SELECT EXPERIMENTAL_MEMOIZE('pow2')")
                  .ok());
  QueryOptions bounded;
  bounded.timeout = absl::Seconds(20);
  auto r = db_->Execute("SELECT pow2(45)", bounded);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rows[0][0].int_value, int64_t{1} << 45);
  // NULL results are not kept: each call computes them again, with the same answer.
  ASSERT_TRUE(Run("CREATE PERFETTO FUNCTION even_only(n LONG) RETURNS LONG AS "
                  "SELECT IIF($n % 2 = 0, $n, NULL);"
                  "SELECT EXPERIMENTAL_MEMOIZE('even_only')")
                  .ok());
  EXPECT_EQ(Rows(*db_, "SELECT even_only(3), even_only(4), even_only(3), even_only(4)"),
            (Table{{"NULL", "4", "NULL", "4"}}));
  EXPECT_THAT(std::string(Run("SELECT EXPERIMENTAL_MEMOIZE('no_such_fn')").message()),
              HasSubstr("cannot memoize"));
}

TEST_F(LegacyStatementsTest, VariadicDelegates) {
  ASSERT_TRUE(Run("CREATE PERFETTO FUNCTION largest(xs LONG...) RETURNS LONG DELEGATES TO max")
                  .ok());
  EXPECT_EQ(Scalar(*db_, "SELECT largest(3, 9, 4)"), "9");
  EXPECT_EQ(Scalar(*db_, "SELECT largest(1, 2, 8, 5, 7)"), "8");
  ASSERT_TRUE(Run("CREATE PERFETTO FUNCTION fmt(parts ANY...) RETURNS STRING "
                  "DELEGATES TO printf")
                  .ok());
  EXPECT_EQ(Scalar(*db_, "SELECT fmt('%s-%s-%d', 'a', 'b', 3)"), "a-b-3");
  EXPECT_EQ(Scalar(*db_, "SELECT fmt('alone')"), "alone");
  EXPECT_THAT(std::string(Run("CREATE PERFETTO FUNCTION v(xs LONG...) RETURNS LONG AS "
                              "SELECT 1")
                              .message()),
              HasSubstr("must be DELEGATES TO"));
  EXPECT_THAT(std::string(Run("CREATE PERFETTO FUNCTION w(xs LONG..., y LONG) RETURNS LONG "
                              "DELEGATES TO max")
                              .message()),
              HasSubstr("only the last argument"));
}

}  // namespace
}  // namespace tw
