#include "libs/verify/stated_numbers.h"

#include <gtest/gtest.h>

namespace tw::verify {
namespace {

TEST(StatedNumbersTest, FindsValuesUnitsAndPrecision) {
  auto n = FindStatedNumbers("27 of 412 frames (9.2 %) waited 31ms; peak 1.42 s at 2.4 GHz");
  ASSERT_EQ(n.size(), 6u);
  EXPECT_EQ(n[0].value, 27);
  EXPECT_EQ(n[0].unit, NumberUnit::kNone);
  EXPECT_EQ(n[1].value, 412);
  EXPECT_DOUBLE_EQ(n[2].value, 9.2);
  EXPECT_EQ(n[2].decimals, 1);
  EXPECT_EQ(n[2].unit, NumberUnit::kPercent);
  EXPECT_EQ(n[3].unit, NumberUnit::kMilliseconds);
  EXPECT_EQ(n[3].text, "31ms");
  EXPECT_EQ(n[4].unit, NumberUnit::kSeconds);
  EXPECT_EQ(n[4].decimals, 2);
  EXPECT_EQ(n[5].unit, NumberUnit::kGigahertz);
}

TEST(StatedNumbersTest, RangesTakeTheUnitOfTheirEnd) {
  auto n = FindStatedNumbers("blocked for 9–31 ms and 2-4 s");
  ASSERT_EQ(n.size(), 4u);
  EXPECT_EQ(n[0].unit, NumberUnit::kMilliseconds);
  EXPECT_EQ(n[1].unit, NumberUnit::kMilliseconds);
  EXPECT_EQ(n[2].unit, NumberUnit::kSeconds);
}

TEST(StatedNumbersTest, SkipsIdentifiersOrdinalsAndVersions) {
  auto n = FindStatedNumbers("RenderThread2 on cpu7, the 2nd frame, Android 14.1.2, binder:1234_5, "
      "composer@2.4-service, /data/app/x-1/base.apk, worker-3");
  EXPECT_TRUE(n.empty()) << n.size() << " first: " << (n.empty() ? "" : n[0].text);
}

TEST(StatedNumbersTest, ThousandsSeparatorsAndThresholdWords) {
  auto n = FindStatedNumbers("1,234 frames, above 16.67 ms budget");
  ASSERT_EQ(n.size(), 2u);
  EXPECT_EQ(n[0].value, 1234);
  EXPECT_FALSE(n[0].is_threshold);
  EXPECT_TRUE(n[1].is_threshold);
}

TEST(StatedNumbersTest, WordUnitsNeedAWordEnd) {
  auto n = FindStatedNumbers("12 slices, 3 seconds, 5 binder calls, 40 MB");
  ASSERT_EQ(n.size(), 4u);
  EXPECT_EQ(n[0].unit, NumberUnit::kNone);
  EXPECT_EQ(n[1].unit, NumberUnit::kSeconds);
  EXPECT_EQ(n[2].unit, NumberUnit::kNone);
  EXPECT_EQ(n[3].unit, NumberUnit::kMegabytes);
}

}  // namespace
}  // namespace tw::verify
