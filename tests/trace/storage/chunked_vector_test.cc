#include "libs/trace/storage/chunked_vector.h"

#include <gtest/gtest.h>

#include "libs/trace/storage/string_pool.h"

namespace tw {
namespace {

TEST(ChunkedVectorTest, KeepsValuesAcrossFirstChunkGrowthAndFullChunks) {
  ChunkedVector<int64_t, 6> v;  // 64-element chunks
  for (int64_t i = 0; i < 1000; ++i) v.push_back(i * 3);
  ASSERT_EQ(v.size(), 1000u);
  for (uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(v[i], static_cast<int64_t>(i) * 3);
}

TEST(ChunkedVectorTest, SmallVectorsStaySmall) {
  ChunkedVector<int64_t> v;
  for (int i = 0; i < 10; ++i) v.push_back(i);
  EXPECT_LT(v.memory_bytes(), 512u);
}

TEST(StringPoolTest, InternsOnceAndNullIsZero) {
  StringPool pool;
  const StringId a = pool.Intern("hello");
  EXPECT_EQ(pool.Intern("hello"), a);
  EXPECT_NE(a, kNullStringId);
  EXPECT_EQ(pool.Get(a), "hello");
  EXPECT_EQ(pool.Find("absent"), kNullStringId);
  EXPECT_NE(pool.Intern(""), kNullStringId);  // the empty string is a real value
  const std::string big(200000, 'x');
  EXPECT_EQ(pool.Get(pool.Intern(big)), big);
  EXPECT_EQ(pool.Get(a), "hello");
}

}  // namespace
}  // namespace tw
