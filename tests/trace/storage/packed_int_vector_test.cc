#include "libs/trace/storage/packed_int_vector.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "libs/trace/storage/column.h"
#include "libs/trace/storage/string_pool.h"
#include "libs/trace/storage/table.h"

namespace tw {
namespace {

TEST(PackedIntVectorTest, KeepsValuesAcrossFirstChunkGrowthAndFullChunks) {
  PackedIntVector<int64_t, 6> v;  // 64-element chunks
  for (int64_t i = 0; i < 1000; ++i) v.push_back(i * 3);
  ASSERT_EQ(v.size(), 1000u);
  for (uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(v[i], static_cast<int64_t>(i) * 3);
}

TEST(PackedIntVectorTest, SmallVectorsStaySmall) {
  PackedIntVector<int64_t> v;
  for (int i = 0; i < 10; ++i) v.push_back(i);
  EXPECT_LT(v.memory_bytes(), 512u);
}

TEST(PackedIntVectorTest, EachChunkTakesTheWidthItsValuesNeed) {
  PackedIntVector<int64_t, 6> v;
  for (int i = 0; i < 64; ++i) v.push_back(7);                              // constant
  for (int i = 0; i < 64; ++i) v.push_back(1'000'000'000'000 + i * 3);     // 1 byte
  for (int i = 0; i < 64; ++i) v.push_back(-5'000 + i * 700);               // 2 bytes
  for (int i = 0; i < 64; ++i) v.push_back(int64_t{60'000'000'000} + i * 10'000'000);  // 4
  for (int i = 0; i < 64; ++i) v.push_back(i % 2 ? INT64_MAX : INT64_MIN);  // 8
  EXPECT_EQ(v.chunk_width(0), 0u);
  EXPECT_EQ(v.chunk_width(1), 1u);
  EXPECT_EQ(v.chunk_width(2), 2u);
  EXPECT_EQ(v.chunk_width(3), 4u);
  EXPECT_EQ(v.chunk_width(4), 8u);
  EXPECT_EQ(v[0], 7);
  EXPECT_EQ(v[64 + 5], 1'000'000'000'015);
  EXPECT_EQ(v[128 + 63], -5'000 + 63 * 700);
  EXPECT_EQ(v[192 + 10], int64_t{60'000'000'000} + 100'000'000);
  EXPECT_EQ(v[256], INT64_MIN);
  EXPECT_EQ(v[257], INT64_MAX);
}

TEST(PackedIntVectorTest, UnsignedValuesUseTheirFullRange) {
  // A whole uint32 range (0 .. 4294967295) still fits 4 bytes per value.
  PackedIntVector<uint32_t, 6> v;
  for (int i = 0; i < 64; ++i) v.push_back(i % 3 == 0 ? UINT32_MAX : static_cast<uint32_t>(i));
  EXPECT_EQ(v.chunk_width(0), 4u);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(v[i], i % 3 == 0 ? UINT32_MAX : i);
}

TEST(PackedIntVectorTest, SetRewritesOldRowsAndWidensTheirChunkOnly) {
  PackedIntVector<int64_t, 6> v;
  for (int i = 0; i < 200; ++i) v.push_back(-1);  // durations not known yet
  for (uint32_t i = 64; i < 128; i += 2) v.Set(i, int64_t{i} * 1'000'000'000);
  EXPECT_EQ(v.chunk_width(0), 0u);
  EXPECT_EQ(v.chunk_width(1), 8u);
  EXPECT_EQ(v.chunk_width(2), 0u);
  for (uint32_t i = 0; i < 200; ++i) {
    const bool set = i >= 64 && i < 128 && i % 2 == 0;
    ASSERT_EQ(v[i], set ? int64_t{i} * 1'000'000'000 : -1) << i;
  }
}

TEST(PackedIntVectorTest, MatchesAPlainVectorOnRandomWalksAndRewrites) {
  std::mt19937_64 rng(17);
  PackedIntVector<int64_t, 8> v;
  std::vector<int64_t> expected;
  int64_t x = 0;
  for (int i = 0; i < 20'000; ++i) {
    const int scale = static_cast<int>(rng() % 40);
    x += static_cast<int64_t>(rng() % (uint64_t{1} << scale)) - (int64_t{1} << scale) / 2;
    if (rng() % 10 == 0 && !expected.empty()) {
      const uint32_t at = static_cast<uint32_t>(rng() % expected.size());
      v.Set(at, x);
      expected[at] = x;
    } else {
      v.push_back(x);
      expected.push_back(x);
    }
  }
  ASSERT_EQ(v.size(), expected.size());
  for (uint32_t i = 0; i < expected.size(); ++i) ASSERT_EQ(v[i], expected[i]) << i;
}

TEST(PackedIntVectorTest, DescendingValuesKeepTheirOrder) {
  PackedIntVector<int32_t, 10> v;
  for (int32_t i = 0; i < 1024; ++i) v.push_back(1'000'000 - i);
  EXPECT_EQ(v.chunk_width(0), 2u);
  for (int32_t i = 0; i < 1024; ++i) ASSERT_EQ(v[static_cast<uint32_t>(i)], 1'000'000 - i);
}

// Durations: mostly under a second, a few threads asleep for longer than 32 bits of ns hold.
// The outliers stay aside and the chunk keeps 4 bytes a value; past 1/64 of the chunk it takes
// 8 bytes after all, and every value reads back either way.
TEST(PackedIntVectorTest, AFewOutliersStayAsideInsteadOfWideningTheirChunk) {
  PackedIntVector<int64_t, 10> v;  // 1024-value chunks: up to 16 exceptions each
  for (int i = 0; i < 2048; ++i) v.push_back(-1);  // open rows, durations set later
  auto dur = [](uint32_t i, bool outliers) -> int64_t {
    if (outliers && i % 64 == 3) return int64_t{5'000'000'000} + i;  // > 2^32 ns
    return int64_t{1'000} * (i * 7919 % 1'000'000);
  };
  for (uint32_t i = 0; i < 1024; ++i) v.Set(i, dur(i, true));  // 16 outliers
  for (uint32_t i = 1024; i < 2048; ++i) {
    v.Set(i, i % 64 == 3 || i % 64 == 5 ? int64_t{5'000'000'000} + i : dur(i, false));  // 32
  }
  EXPECT_EQ(v.chunk_width(0), 4u);
  EXPECT_EQ(v.chunk_exceptions(0), 16u);
  EXPECT_EQ(v.chunk_width(1), 8u);
  EXPECT_EQ(v.chunk_exceptions(1), 0u);
  for (uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(v[i], dur(i, true)) << i;
  for (uint32_t i = 1024; i < 2048; ++i) {
    ASSERT_EQ(v[i], i % 64 == 3 || i % 64 == 5 ? int64_t{5'000'000'000} + i : dur(i, false)) << i;
  }
  EXPECT_LT(v.memory_bytes(), 1024u * 4 + 1024u * 8 + 1024);
}

TEST(PackedIntVectorTest, SetsMoveValuesInAndOutOfTheExceptions) {
  PackedIntVector<int64_t, 10> v;
  // 0 and 2^32 - 1 span exactly 4 bytes, so the base is 0 and 2^32 - 1 is an all-ones slot.
  constexpr int64_t kAllOnes = 0xFFFFFFFFll;
  auto initial = [](uint32_t i) -> int64_t { return i == 255 ? kAllOnes : i % 256; };
  for (uint32_t i = 0; i < 1024; ++i) v.push_back(initial(i));
  EXPECT_EQ(v.chunk_width(0), 4u);
  v.Set(10, INT64_MAX);  // aside
  v.Set(500, INT64_MIN);
  v.Set(20, int64_t{1} << 40);  // lands between the two: the list stays sorted
  EXPECT_EQ(v.chunk_exceptions(0), 3u);
  EXPECT_EQ(v.chunk_width(0), 4u);
  // An in-band value whose slot is all ones reads as itself: the list, not the slot, decides.
  EXPECT_EQ(v[255], kAllOnes);
  EXPECT_EQ(v[10], INT64_MAX);
  EXPECT_EQ(v[20], int64_t{1} << 40);
  EXPECT_EQ(v[500], INT64_MIN);
  v.Set(10, 77);  // back in its slot
  EXPECT_EQ(v.chunk_exceptions(0), 2u);
  v.Set(20, 78);
  v.Set(500, 79);  // the last one back: the chunk reads as one without exceptions
  EXPECT_EQ(v.chunk_exceptions(0), 0u);
  for (uint32_t i = 0; i < 1024; ++i) {
    const int64_t want = i == 10 ? 77 : i == 20 ? 78 : i == 500 ? 79 : initial(i);
    ASSERT_EQ(v[i], want) << i;
  }
}

// Exceptions live in 4-byte chunks only: a 1-byte chunk that meets an outlier widens to 4 bytes
// and keeps the outlier aside, rather than going to 8.
TEST(PackedIntVectorTest, ANarrowChunkWidensToFourBytesForItsFirstException) {
  PackedIntVector<int64_t, 10> v;
  for (int i = 0; i < 1024; ++i) v.push_back(i % 100);
  EXPECT_EQ(v.chunk_width(0), 1u);
  v.Set(7, int64_t{1} << 50);
  EXPECT_EQ(v.chunk_width(0), 4u);
  EXPECT_EQ(v.chunk_exceptions(0), 1u);
  for (uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(v[i], i == 7 ? int64_t{1} << 50 : i % 100) << i;
}

TEST(PackedIntVectorTest, MatchesAPlainVectorWithOutliersAndRewrites) {
  std::mt19937_64 rng(29);
  PackedIntVector<int64_t, 9> v;  // 512-value chunks: up to 8 exceptions each
  std::vector<int64_t> expected;
  auto value = [&rng]() -> int64_t {
    const uint64_t r = rng() % 100;
    if (r == 0) return static_cast<int64_t>(rng());  // anywhere in int64
    if (r < 3) return int64_t{10'000'000'000} + static_cast<int64_t>(rng() % 1000);
    if (r < 4) return static_cast<int64_t>(0xFFFFFFFFull);  // an all-ones distance, maybe
    return static_cast<int64_t>(rng() % 100'000) - 1;
  };
  for (int i = 0; i < 30'000; ++i) {
    if (rng() % 4 == 0 && !expected.empty()) {
      const uint32_t at = static_cast<uint32_t>(rng() % expected.size());
      const int64_t x = value();
      v.Set(at, x);
      expected[at] = x;
    } else {
      const int64_t x = value();
      v.push_back(x);
      expected.push_back(x);
    }
  }
  ASSERT_EQ(v.size(), expected.size());
  for (uint32_t i = 0; i < expected.size(); ++i) ASSERT_EQ(v[i], expected[i]) << i;
}

TEST(PackedDoubleVectorTest, WholeNumbersPackAndFractionsStayExact) {
  PackedDoubleVector v;
  const uint32_t n = 3 * (1u << 14);
  for (uint32_t i = 0; i < n; ++i) v.push_back(i % 4 == 0 ? 4294967295.0 : i % 4);
  const size_t whole_bytes = v.memory_bytes();
  EXPECT_LT(whole_bytes, size_t{n} * 5);  // 4 bytes a value, not 8
  v.Set(5, 0.25);                         // chunk 0 turns to raw doubles
  v.push_back(-0.0);
  v.push_back(std::numeric_limits<double>::quiet_NaN());
  v.push_back(1e300);
  EXPECT_EQ(v[0], 4294967295.0);
  EXPECT_EQ(v[5], 0.25);
  EXPECT_EQ(v[6], 2.0);
  EXPECT_EQ(v[n - 1], 3.0);
  EXPECT_TRUE(std::signbit(v[n]));
  EXPECT_TRUE(std::isnan(v[n + 1]));
  EXPECT_EQ(v[n + 2], 1e300);
}

TEST(ColumnTest, NullCellsAndSetsRoundTripThroughPackedStorage) {
  Table table("t", "doc");
  IntColumn<uint32_t> ids(&table, "ids", /*nullable=*/true, kNone, "doc");
  StringColumn names(&table, "names", false, kNone, "doc");
  for (uint32_t i = 0; i < 40'000; ++i) {
    if (i % 7 == 0) {
      ids.AppendNull();
    } else {
      ids.Append(i * 100);
    }
    names.Append(i % 5);
  }
  ids.Set(7, 123);
  names.Set(39'999, 77);
  EXPECT_TRUE(ids.IsNull(14));
  EXPECT_FALSE(ids.IsNull(7));
  EXPECT_EQ(ids.GetInt(7), 123);
  EXPECT_EQ(ids.GetInt(39'997), 3'999'700);
  EXPECT_TRUE(names.IsNull(0));
  EXPECT_EQ(names.GetString(39'999), 77u);
  EXPECT_EQ(names.GetString(39'998), 3u);
  EXPECT_LT(names.memory_bytes(), 40'000u * 2);  // 1 byte a cell, not 4
}

// Row ids in the millions on a quarter of the rows, NULL on the rest (thread_state.waker_id):
// a NULL must not pull its chunk down to 0, which would take 4 bytes a cell instead of 2.
TEST(ColumnTest, NullCellsDoNotWidenTheirChunk) {
  Table table("t", "doc");
  IntColumn<uint32_t> waker(&table, "waker", /*nullable=*/true, kNone, "doc");
  constexpr uint32_t kRows = 1 << 16;
  for (uint32_t i = 0; i < kRows; ++i) {
    if (i % 4 == 0) {
      waker.Append(5'000'000 + i);
    } else {
      waker.Append(std::optional<uint32_t>());
    }
  }
  for (uint32_t i = 0; i < kRows; ++i) {
    if (i % 4 == 0) {
      ASSERT_EQ(waker.Get(i), 5'000'000 + i);
    } else {
      // NULL reads as NULL, and as 0 through operator[] (what callers relied on before).
      ASSERT_EQ(waker.Get(i), std::nullopt);
      ASSERT_EQ(waker[i], 0u);
      ASSERT_TRUE(waker.IsNull(i));
    }
  }
  EXPECT_LT(waker.memory_bytes(), size_t{kRows} * 2 + kRows / 8 + 1024);
  // A NULL cell later set takes its value; a non-nullable column keeps 0 for a missing value.
  waker.Set(1, 42);
  EXPECT_EQ(waker.Get(1), 42u);
  IntColumn<int64_t> plain(&table, "plain", /*nullable=*/false, kNone, "doc");
  plain.Append(int64_t{7});
  plain.Append(std::optional<int64_t>());
  EXPECT_FALSE(plain.IsNull(1));
  EXPECT_EQ(plain[1], 0);
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
