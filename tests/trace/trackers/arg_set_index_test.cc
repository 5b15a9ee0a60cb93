#include "libs/trace/trackers/arg_set_index.h"

#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace tw {
namespace {

TEST(ArgSetIndexTest, ReturnsTheFirstIdStoredUnderAKey) {
  ArgSetIndex index;
  EXPECT_EQ(index.FindOrInsert(0x1234, 7, 10), 10u);
  EXPECT_EQ(index.FindOrInsert(0x1234, 7, 20), 10u);
  EXPECT_EQ(index.size(), 1u);
}

TEST(ArgSetIndexTest, KeysDifferingInEitherHashAreDistinct) {
  ArgSetIndex index;
  EXPECT_EQ(index.FindOrInsert(1, 1, 0), 0u);
  EXPECT_EQ(index.FindOrInsert(1, 2, 1), 1u);  // same index hash, other check
  EXPECT_EQ(index.FindOrInsert(2, 1, 2), 2u);  // same check, other index hash
  EXPECT_EQ(index.FindOrInsert(1, 2, 9), 1u);
  EXPECT_EQ(index.FindOrInsert(2, 1, 9), 2u);
  EXPECT_EQ(index.size(), 3u);
}

// Every key in one shard and one home bucket: probing runs past the bucket, wraps around the
// shard's end, and growth re-places every key.
TEST(ArgSetIndexTest, KeysCrowdingOneBucketAreAllFound) {
  ArgSetIndex index;
  constexpr uint32_t kKeys = 1000;
  for (uint32_t i = 0; i < kKeys; ++i) {
    ASSERT_EQ(index.FindOrInsert(0xFFFFFFFFFFFFFFFFull, i, i), i);
  }
  for (uint32_t i = 0; i < kKeys; ++i) {
    ASSERT_EQ(index.FindOrInsert(0xFFFFFFFFFFFFFFFFull, i, kKeys + i), i);
  }
  EXPECT_EQ(index.size(), kKeys);
}

// Many random keys: all found after every shard has grown many times, and the index stays
// within a small multiple of its 16 bytes a key (growth by a quarter, 7/8 full at most).
TEST(ArgSetIndexTest, ManyKeysAreFoundAndTheIndexStaysCompact) {
  ArgSetIndex index;
  std::mt19937_64 rng(17);
  constexpr uint32_t kKeys = 300000;
  std::vector<std::pair<uint64_t, uint32_t>> keys;
  for (uint32_t i = 0; i < kKeys; ++i) {
    keys.emplace_back(rng(), static_cast<uint32_t>(rng()));
    ASSERT_EQ(index.FindOrInsert(keys.back().first, keys.back().second, i), i);
  }
  for (uint32_t i = 0; i < kKeys; ++i) {
    ASSERT_EQ(index.FindOrInsert(keys[i].first, keys[i].second, UINT32_MAX - 1), i);
  }
  EXPECT_EQ(index.size(), kKeys);
  EXPECT_LE(index.memory_bytes(), size_t{kKeys} * 16 * 3 / 2 + 64 * 1024);
  EXPECT_GE(index.memory_bytes(), size_t{kKeys} * 16);
}

}  // namespace
}  // namespace tw
