// REGEXP, REGEXP_EXTRACT and REGEXP_REPLACE_SIMPLE (regexp_functions.h).

#include "libs/trace/query/regexp_functions.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::HasSubstr;
using testing::Rows;
using testing::Scalar;
using Table = std::vector<std::vector<std::string>>;

class RegexpFunctionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = std::make_unique<TraceStorage>();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_TRUE(db_);
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(RegexpFunctionsTest, RegexpSearchesWithCaseFlags) {
  EXPECT_EQ(Rows(*db_, "SELECT 'binder transaction' REGEXP '^binder', 'Choreographer' REGEXP"
                       " 'graph', 'GC' REGEXP 'gc', regexp('gc', 'GC', 'i'),"
                       " regexp('gc', 'GC', 'ic'), regexp('gc', 'GC', 'ci'), regexp(NULL, 'x')"),
            (Table{{"1", "1", "0", "1", "0", "1", "NULL"}}));
}

TEST_F(RegexpFunctionsTest, RegexpWorksOnColumnPatternsRowByRow) {
  EXPECT_EQ(Rows(*db_, "WITH v(p, s) AS (VALUES ('a+', 'caat'), ('^b', 'abc'), ('[0-9]{3}', 'x123'))"
                       " SELECT regexp(p, s) FROM v"),
            (Table{{"1"}, {"0"}, {"1"}}));
}

TEST_F(RegexpFunctionsTest, ExtractGivesTheFirstGroupOrTheWholeMatch) {
  EXPECT_EQ(Rows(*db_, "SELECT REGEXP_EXTRACT('RenderThread 1234', '([0-9]+)'),"
                       " REGEXP_EXTRACT('frame 42 late', 'frame [0-9]+'),"
                       " REGEXP_EXTRACT('xz', 'x(y)?z'), REGEXP_EXTRACT('abc', 'q')"),
            (Table{{"1234", "frame 42", "xz", "NULL"}}));
}

TEST_F(RegexpFunctionsTest, ReplaceSimpleReplacesEveryMatchLiterally) {
  EXPECT_EQ(Rows(*db_, "SELECT REGEXP_REPLACE_SIMPLE('binder:123_4', '[0-9]+', '#'),"
                       " REGEXP_REPLACE_SIMPLE('aaa', 'a*', '-'),"  // then the empty match at the end
                       " REGEXP_REPLACE_SIMPLE('xy', '', '.'), REGEXP_REPLACE_SIMPLE('x', 'q', '\\1')"),
            (Table{{"binder:#_#", "--", ".x.y.", "x"}}));
}

TEST_F(RegexpFunctionsTest, ABadPatternIsAnErrorNamingIt) {
  auto r = db_->Execute("SELECT REGEXP_EXTRACT('abc', '(unclosed')");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("invalid regular expression '(unclosed'"));
  r = db_->Execute("SELECT regexp('a', 'a', 'x')");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("unknown flag 'x'"));
}

}  // namespace
}  // namespace tw
