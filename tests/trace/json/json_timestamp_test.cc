// Microsecond text to nanoseconds without going through a double.

#include "libs/trace/importers/json/json_timestamp.h"

#include <gtest/gtest.h>

namespace tw {
namespace {

TEST(JsonTimestampTest, IntegersAndFractions) {
  EXPECT_EQ(MicrosLiteralToNanos("0"), 0);
  EXPECT_EQ(MicrosLiteralToNanos("3002"), 3002000);
  EXPECT_EQ(MicrosLiteralToNanos("1.5"), 1500);
  EXPECT_EQ(MicrosLiteralToNanos("0.001"), 1);
  EXPECT_EQ(MicrosLiteralToNanos("-2.25"), -2250);
  EXPECT_EQ(MicrosLiteralToNanos("1e3"), 1000000);
  EXPECT_EQ(MicrosLiteralToNanos("1.5E-3"), 2);  // 1.5 ns rounds half away from zero
  EXPECT_EQ(MicrosLiteralToNanos("12345e-2"), 123450);
}

TEST(JsonTimestampTest, RoundsHalfAwayFromZeroPastTheThirdDecimal) {
  EXPECT_EQ(MicrosLiteralToNanos("1.0004"), 1000);
  EXPECT_EQ(MicrosLiteralToNanos("1.0005"), 1001);
  EXPECT_EQ(MicrosLiteralToNanos("-1.0005"), -1001);
  EXPECT_EQ(MicrosLiteralToNanos("0.0000001"), 0);
}

TEST(JsonTimestampTest, KeepsPrecisionADoubleWouldLose) {
  // 19 significant digits: a double would round the nanoseconds.
  EXPECT_EQ(MicrosLiteralToNanos("1597071955492308.123"), 1597071955492308123);
  EXPECT_EQ(MicrosLiteralToNanos("9223372036854775.807"), INT64_MAX);
}

TEST(JsonTimestampTest, RejectsWhatIsNotANumberOrDoesNotFit) {
  EXPECT_EQ(MicrosLiteralToNanos(""), std::nullopt);
  EXPECT_EQ(MicrosLiteralToNanos("-"), std::nullopt);
  EXPECT_EQ(MicrosLiteralToNanos("12a"), std::nullopt);
  EXPECT_EQ(MicrosLiteralToNanos("1e"), std::nullopt);
  EXPECT_EQ(MicrosLiteralToNanos("NaN"), std::nullopt);
  EXPECT_EQ(MicrosLiteralToNanos("9223372036854775.808"), std::nullopt);
  EXPECT_EQ(MicrosLiteralToNanos("1e400"), std::nullopt);
  EXPECT_EQ(MicrosLiteralToNanos("1e-400"), 0);
}

}  // namespace
}  // namespace tw
