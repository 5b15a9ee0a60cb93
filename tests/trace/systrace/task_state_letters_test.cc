// TaskStateFromLetters lives in trackers/task_state; it exists for the systrace importer, so
// its tests live with the importer's.
#include <gtest/gtest.h>

#include "libs/trace/events/task_state.h"

namespace tw {
namespace {

TEST(TaskStateFromLetters, RoundTripsThroughTheDefaultLayout) {
  for (std::string_view s :
       {"R", "R+", "S", "D", "T", "t", "X", "Z", "x", "K", "W", "P", "N", "I", "DK", "SK", "DN"}) {
    const std::optional<int64_t> raw = TaskStateFromLetters(s);
    ASSERT_TRUE(raw) << s;
    // With no kernel version (text traces have none) the tracker assumes 4.4.
    const std::string back = TaskStateToString(*raw, std::nullopt);
    EXPECT_EQ(back, s == "DN" ? "I" : std::string(s)) << s;  // D+N is how 4.4 spells idle
  }
}

TEST(TaskStateFromLetters, SeparatorsAndBits) {
  EXPECT_EQ(TaskStateFromLetters("D|K"), 0x82);
  EXPECT_EQ(TaskStateFromLetters("S"), 1);
  EXPECT_EQ(TaskStateFromLetters("R+"), 0x800);
  EXPECT_EQ(TaskStateFromLetters("I"), 0x402);
  EXPECT_EQ(TaskStateFromLetters("RS"), 0);  // a leading R wins, as in trace_processor
}

TEST(TaskStateFromLetters, RejectsUnknownLetters) {
  EXPECT_FALSE(TaskStateFromLetters(""));
  EXPECT_FALSE(TaskStateFromLetters("Q"));
  EXPECT_FALSE(TaskStateFromLetters("SR"));
  EXPECT_FALSE(TaskStateFromLetters("S+"));
}

}  // namespace
}  // namespace tw
