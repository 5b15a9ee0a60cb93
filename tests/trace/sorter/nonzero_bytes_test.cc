#include "libs/trace/sorter/nonzero_bytes.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

namespace tw::nonzero_bytes {
namespace {

using Bytes = std::array<uint8_t, kBytes>;

void ExpectRoundTrip(const Bytes& in) {
  std::vector<uint8_t> expected_packed;
  uint32_t expected_mask = 0;
  for (uint32_t i = 0; i < kBytes; ++i) {
    if (in[i] != 0) {
      expected_mask |= 1u << i;
      expected_packed.push_back(in[i]);
    }
  }
  // Room for the packed bytes, the read slack, and a guard that must stay untouched.
  std::vector<uint8_t> packed(kBytes + kReadSlack + 8, 0xEE);
  uint32_t mask = 0;
  const size_t written = Pack(in.data(), packed.data(), &mask);
  ASSERT_EQ(mask, expected_mask);
  ASSERT_EQ(written, expected_packed.size());
  EXPECT_TRUE(std::equal(expected_packed.begin(), expected_packed.end(), packed.begin()));
  EXPECT_EQ(packed[kBytes + kReadSlack], 0xEE);

  Bytes out;
  out.fill(0xCD);  // every byte must be written, the zeros too
  EXPECT_EQ(Unpack(packed.data(), mask, out.data()), written);
  EXPECT_EQ(out, in);
}

TEST(NonzeroBytesTest, AllZeroAndAllSet) {
  Bytes zeros{};
  ExpectRoundTrip(zeros);
  Bytes ones;
  for (uint32_t i = 0; i < kBytes; ++i) ones[i] = static_cast<uint8_t>(i + 1);
  ExpectRoundTrip(ones);
}

TEST(NonzeroBytesTest, EveryMaskOfOneGroupInEachPosition) {
  for (uint32_t group = 0; group < 3; ++group) {
    for (uint32_t m = 0; m < 256; ++m) {
      Bytes in{};
      for (uint32_t j = 0; j < 8; ++j) {
        if (m & (1u << j)) in[8 * group + j] = static_cast<uint8_t>(0x80 + j);
      }
      ExpectRoundTrip(in);
    }
  }
}

TEST(NonzeroBytesTest, RandomPayloads) {
  std::mt19937 rng(99);
  for (int i = 0; i < 20000; ++i) {
    Bytes in;
    const uint32_t density = rng() % 5;  // from mostly zero to mostly set
    for (uint8_t& b : in) b = (rng() % 4 < density) ? static_cast<uint8_t>(rng()) : 0;
    ExpectRoundTrip(in);
  }
}

// Unpack consumes exactly its own bytes from a stream of packed payloads, back to back.
TEST(NonzeroBytesTest, BackToBackPayloadsDecodeInOrder) {
  std::mt19937 rng(7);
  std::vector<Bytes> payloads(500);
  std::vector<uint32_t> masks;
  std::vector<uint8_t> stream((kBytes + 3) * payloads.size() + kReadSlack, 0);
  size_t at = 0;
  for (Bytes& p : payloads) {
    for (uint8_t& b : p) b = rng() % 3 == 0 ? static_cast<uint8_t>(rng()) : 0;
    uint32_t mask = 0;
    at += Pack(p.data(), stream.data() + at, &mask);
    masks.push_back(mask);
  }
  size_t read = 0;
  for (size_t i = 0; i < payloads.size(); ++i) {
    Bytes out;
    read += Unpack(stream.data() + read, masks[i], out.data());
    ASSERT_EQ(out, payloads[i]) << i;
  }
  EXPECT_EQ(read, at);
}

}  // namespace
}  // namespace tw::nonzero_bytes
