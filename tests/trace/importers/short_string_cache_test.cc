// ShortStringCache: the same ids as the pool alone, in the same order, for every string.

#include "libs/trace/importers/proto/short_string_cache.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tw {
namespace {

// Interns `names` through a cache into one pool and directly into another: every id matches,
// so the cache changes neither ids nor the order in which they are assigned.
void ExpectSameIdsAsThePool(const std::vector<std::string>& names) {
  StringPool cached_pool;
  StringPool plain_pool;
  ShortStringCache cache;
  int interns = 0;
  for (const std::string& name : names) {
    const StringId via_cache = cache.Get(name, [&](std::string_view s) {
      ++interns;
      return cached_pool.Intern(s);
    });
    ASSERT_EQ(via_cache, plain_pool.Intern(name)) << name;
    ASSERT_EQ(cached_pool.Get(via_cache), name);
  }
  EXPECT_EQ(cached_pool.size(), plain_pool.size());
  EXPECT_GT(interns, 0);
}

TEST(ShortStringCacheTest, RepeatedCommsHitAndKeepThePoolsIds) {
  std::vector<std::string> names;
  for (int round = 0; round < 50; ++round) {
    for (const char* comm : {"swapper/0", "kworker/1:2", "surfaceflinger", "RenderThread", ""}) {
      names.push_back(comm);
    }
  }
  StringPool pool;
  ShortStringCache cache;
  int interns = 0;
  for (const std::string& name : names) {
    cache.Get(name, [&](std::string_view s) {
      ++interns;
      return pool.Intern(s);
    });
  }
  EXPECT_EQ(interns, 5);  // each distinct name once; every repeat is a hit
  ExpectSameIdsAsThePool(names);
}

TEST(ShortStringCacheTest, StringsDifferingOnlyInLengthOrLastByteStayApart) {
  // Zero padding must not make "a" and "a\0" one string, nor 16-byte names that differ late.
  ExpectSameIdsAsThePool({"a", std::string("a\0", 2), std::string("a\0\0", 3), "a",
                          "0123456789abcdef", "0123456789abcdeF", "0123456789abcde",
                          "0123456789abcdef", std::string("a\0", 2)});
}

TEST(ShortStringCacheTest, LongStringsAndManyNamesGoThroughThePool) {
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) names.push_back("thread-" + std::to_string(i % 1500));
  for (int i = 0; i < 100; ++i) names.push_back(std::string(17 + i % 5, 'x'));  // past 16 bytes
  ExpectSameIdsAsThePool(names);
}

}  // namespace
}  // namespace tw
