#include "libs/trace/trackers/tid_map.h"

#include <gtest/gtest.h>

namespace tw {
namespace {

TEST(TidMapTest, UnknownTidsAreAbsent) {
  TidMap map;
  EXPECT_EQ(map.Find(0), TidMap::kNone);
  EXPECT_EQ(map.Find(1234), TidMap::kNone);
  EXPECT_EQ(map.Find(-1), TidMap::kNone);
  EXPECT_FALSE(map.Contains(int64_t{1} << 40));
}

TEST(TidMapTest, SetFindAndEraseAcrossPagesAndBeyondPidMax) {
  TidMap map;
  // Ordinary tids (one page, the next page, the last dense tid), then tids past pid_max and
  // negative ones, which another table holds.
  const int64_t tids[] = {0, 1, 4095, 4096, 32768, (int64_t{1} << 22) - 1, int64_t{1} << 22,
                          int64_t{1} << 40, -1, INT64_MIN};
  uint32_t utid = 10;
  for (int64_t tid : tids) map.Set(tid, utid++);
  utid = 10;
  for (int64_t tid : tids) EXPECT_EQ(map.Find(tid), utid++) << tid;
  EXPECT_EQ(map.Find(2), TidMap::kNone);  // a neighbour on an allocated page
  map.Set(4096, 99);                      // a tid reused by a new thread
  EXPECT_EQ(map.Find(4096), 99u);
  for (int64_t tid : tids) map.Erase(tid);
  for (int64_t tid : tids) EXPECT_FALSE(map.Contains(tid)) << tid;
  map.Erase(777777);  // never set, on a page never allocated: nothing happens
  EXPECT_FALSE(map.Contains(777777));
}

}  // namespace
}  // namespace tw
