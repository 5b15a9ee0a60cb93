#include "libs/trace/events/task_state.h"

#include <gtest/gtest.h>

namespace tw {
namespace {

TEST(TaskStateTest, NewKernelLayout) {
  const KernelVersion v{5, 10};
  EXPECT_EQ(TaskStateToString(0, v), "R");
  EXPECT_EQ(TaskStateToString(0x100, v), "R+");
  EXPECT_EQ(TaskStateToString(1, v), "S");
  EXPECT_EQ(TaskStateToString(2, v), "D");
  EXPECT_EQ(TaskStateToString(0x80, v), "I");
  EXPECT_EQ(TaskStateToString(0x40, v), "P");
  EXPECT_EQ(TaskStateToString(0x20, v), "Z");
  EXPECT_EQ(TaskStateToString(0x200, v), "");  // bits unused since 4.14: invalid
}

TEST(TaskStateTest, OldKernelLayoutIsTheDefault) {
  EXPECT_EQ(TaskStateToString(0x80 | 2, std::nullopt), "DK");
  EXPECT_EQ(TaskStateToString(0x100, std::nullopt), "W");
  EXPECT_EQ(TaskStateToString(0x402, std::nullopt), "I");  // D + NOLOAD is idle
  EXPECT_EQ(TaskStateToString(0x800, std::nullopt), "R+");  // 4.4 preempt bit
  EXPECT_EQ(TaskStateToString(0x1000, KernelVersion{4, 9}), "R+");
}

TEST(TaskStateTest, ParsesKernelReleases) {
  auto v = ParseKernelVersion("5.10.43-android12-9-00001-g8d7d2c2");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->major, 5);
  EXPECT_EQ(v->minor, 10);
  EXPECT_FALSE(ParseKernelVersion("android"));
  EXPECT_TRUE(ParseKernelVersion("4.14")->AtLeast(4, 14));
}

}  // namespace
}  // namespace tw
