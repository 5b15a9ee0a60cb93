#include "libs/verify/grounding.h"

#include <gtest/gtest.h>

namespace tw::verify {
namespace {

Artifact FrameArtifact() {
  Artifact a;
  a.id = "art-1";
  a.columns = {{"frames", ColumnUnit::kNumber},
               {"janky_frames", ColumnUnit::kNumber},
               {"p90_dur", ColumnUnit::kDurationNs},
               {"max_freq_khz", ColumnUnit::kNumber}};
  a.rows = {{int64_t{412}, int64_t{38}, int64_t{30'612'000}, int64_t{1'401'600}}};
  return a;
}

StatedNumber One(const std::string& text) {
  auto numbers = FindStatedNumbers(text);
  EXPECT_EQ(numbers.size(), 1u) << text;
  return numbers.empty() ? StatedNumber{} : numbers[0];
}

TEST(GroundingTest, DurationsMatchNanosecondCellsWithinTheWrittenRounding) {
  Artifact a = FrameArtifact();
  EXPECT_TRUE(IsGrounded(One("31 ms"), {&a}));     // 30.612 rounds to 31
  EXPECT_TRUE(IsGrounded(One("30.6 ms"), {&a}));
  EXPECT_FALSE(IsGrounded(One("30.7 ms"), {&a}));  // more precise claim, wrong digit
  EXPECT_FALSE(IsGrounded(One("45 ms"), {&a}));
  EXPECT_TRUE(IsGrounded(One("0.03 s"), {&a}));
}

TEST(GroundingTest, CountsMustNotMatchDurations) {
  Artifact a = FrameArtifact();
  EXPECT_TRUE(IsGrounded(One("412 frames"), {&a}));
  EXPECT_FALSE(IsGrounded(One("30612000 frames"), {&a}));
}

TEST(GroundingTest, PercentagesMayBeARatioOfOneRow) {
  Artifact a = FrameArtifact();
  EXPECT_TRUE(IsGrounded(One("9.2 %"), {&a}));   // 38 / 412
  EXPECT_FALSE(IsGrounded(One("12.5 %"), {&a}));
}

TEST(GroundingTest, FrequenciesMatchKilohertzCounters) {
  Artifact a = FrameArtifact();
  EXPECT_TRUE(IsGrounded(One("1.4 GHz"), {&a}));
  EXPECT_TRUE(IsGrounded(One("1402 MHz"), {&a}));
  EXPECT_FALSE(IsGrounded(One("2.4 GHz"), {&a}));
}

TEST(GroundingTest, QueryParametersAreEvidenceToo) {
  Artifact a = FrameArtifact();
  EXPECT_FALSE(IsGrounded(One("thread 4242"), {&a}));
  a.parameters = {int64_t{4242}, std::string("com.example")};
  EXPECT_TRUE(IsGrounded(One("thread 4242"), {&a}));
}

TEST(GroundingTest, NumbersQuotedFromTextCellsAreGrounded) {
  Artifact a;
  a.id = "anrs";
  a.columns = {{"subject", ColumnUnit::kUnknown}};
  a.rows = {{std::string("Input dispatching timed out (5913372 com.example/.Main is not "
                         "responding. Waited 5000ms for MotionEvent)")}};
  EXPECT_TRUE(IsGrounded(One("pid 5913372"), {&a}));
  EXPECT_TRUE(IsGrounded(One("waited 5000ms"), {&a}));
  EXPECT_FALSE(IsGrounded(One("waited 500ms"), {&a}));  // a prefix of "5000ms" is not a quote
  EXPECT_FALSE(IsGrounded(One("pid 913372"), {&a}));    // nor a suffix of 5913372
}

TEST(GroundingTest, WellKnownConstants) {
  EXPECT_TRUE(IsWellKnownConstant(One("16.67 ms")));
  EXPECT_TRUE(IsWellKnownConstant(One("120 Hz")));
  EXPECT_FALSE(IsWellKnownConstant(One("23 ms")));
}

}  // namespace
}  // namespace tw::verify
