#include "libs/agent/result_summary.h"

#include <gtest/gtest.h>

namespace tw::agent {
namespace {

skills::StepResult Rows(int n) {
  skills::StepResult r;
  r.artifact_id = "art-7";
  r.columns = {{"thread", skills::ColumnType::kString, ""},
               {"dur", skills::ColumnType::kDurationNs, "ns"}};
  for (int i = 0; i < n; ++i) {
    r.rows.push_back({SqlValue::String(i % 3 == 0 ? "main" : "RenderThread"),
                      SqlValue::Int(1000 * (i + 1))});
  }
  return r;
}

TEST(ResultSummaryTest, SmallResultsAreShownWhole) {
  const std::string s = SummarizeResult(Rows(3));
  EXPECT_NE(s.find("artifact art-7: 3 rows"), std::string::npos);
  EXPECT_NE(s.find("main | 1000"), std::string::npos);
  EXPECT_NE(s.find("RenderThread | 3000"), std::string::npos);
}

TEST(ResultSummaryTest, LargeResultsGetStatisticsAndSamples) {
  const std::string s = SummarizeResult(Rows(1000));
  EXPECT_NE(s.find("1000 rows"), std::string::npos);
  EXPECT_NE(s.find("min 1000, median 501000, max 1e+06"), std::string::npos) << s;
  EXPECT_NE(s.find("2 distinct, top: RenderThread (666), main (334)"), std::string::npos) << s;
  EXPECT_EQ(s.find("| 6000"), std::string::npos);  // only the first 5 rows
  EXPECT_NE(s.find("fetch_artifact"), std::string::npos);
  EXPECT_LT(s.size(), 800u);
}

TEST(ResultSummaryTest, RenderRowsPages) {
  const std::string page = RenderRows(Rows(100), 10, 2);
  EXPECT_NE(page.find("11000"), std::string::npos);
  EXPECT_NE(page.find("12000"), std::string::npos);
  EXPECT_EQ(page.find("13000"), std::string::npos);
}

}  // namespace
}  // namespace tw::agent
