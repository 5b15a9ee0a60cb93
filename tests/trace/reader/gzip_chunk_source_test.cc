#include "libs/trace/reader/gzip_chunk_source.h"

#include <string>

#include "gtest/gtest.h"
#include "tests/trace/reader/test_sources.h"

namespace tw {
namespace {

using ::tw::testing::Compress;
using ::tw::testing::DribbleSource;
using ::tw::testing::FailingSource;
using ::tw::testing::Gzip;
using ::tw::testing::OwnedMemorySource;
using ::tw::testing::RandomBytes;
using ::tw::testing::ReadAll;
using ::tw::testing::TestBytes;

std::unique_ptr<GzipChunkSource> Gunzip(std::string compressed, size_t in_buf = 256 << 10) {
  return std::make_unique<GzipChunkSource>(
      std::make_unique<OwnedMemorySource>(std::move(compressed)), in_buf);
}

TEST(GzipChunkSource, RoundTripsLargeStream) {
  const std::string data = TestBytes(3 << 20);
  auto src = Gunzip(Gzip(data));
  std::string out;
  ASSERT_TRUE(ReadAll(src.get(), &out, 70000).ok());
  EXPECT_EQ(out, data);
  EXPECT_EQ(src->members(), 1);
  EXPECT_EQ(src->decompressed_bytes(), static_cast<int64_t>(data.size()));
  uint8_t b;
  EXPECT_EQ(*src->Read(&b, 1), 0u);  // stays at end
}

TEST(GzipChunkSource, TinyReadsTinyBuffersAndDribbledInput) {
  const std::string data = TestBytes(200000, 3);
  GzipChunkSource src(std::make_unique<DribbleSource>(Gzip(data)), /*input_buffer_bytes=*/16);
  std::string out;
  ASSERT_TRUE(ReadAll(&src, &out, 5).ok());
  EXPECT_EQ(out, data);
}

TEST(GzipChunkSource, AutoDetectsZlibStreams) {
  const std::string data = TestBytes(50000);
  auto src = Gunzip(Compress(data, /*window_bits=*/15));
  std::string out;
  ASSERT_TRUE(ReadAll(src.get(), &out).ok());
  EXPECT_EQ(out, data);
}

TEST(GzipChunkSource, ConcatenatedMembersDecodeAsOneStream) {
  const std::string a = TestBytes(100000, 1), b = TestBytes(1, 2), c = TestBytes(70000, 3);
  auto src = Gunzip(Gzip(a) + Gzip(b) + Gzip("") + Gzip(c));
  std::string out;
  ASSERT_TRUE(ReadAll(src.get(), &out, 1000).ok());
  EXPECT_EQ(out, a + b + c);
  EXPECT_EQ(src->members(), 4);
}

TEST(GzipChunkSource, ConcatenatedMembersAcrossDribbledInput) {
  const std::string a = TestBytes(3000, 1), b = TestBytes(4000, 2);
  GzipChunkSource src(std::make_unique<DribbleSource>(Gzip(a) + Gzip(b)), 8);
  std::string out;
  ASSERT_TRUE(ReadAll(&src, &out, 3).ok());
  EXPECT_EQ(out, a + b);
  EXPECT_EQ(src.members(), 2);
}

TEST(GzipChunkSource, TrailingZeroPaddingIsIgnored) {
  const std::string data = TestBytes(1000);
  auto src = Gunzip(Gzip(data) + std::string(600, '\0'), 64);
  std::string out;
  ASSERT_TRUE(ReadAll(src.get(), &out).ok());
  EXPECT_EQ(out, data);
}

TEST(GzipChunkSource, TrailingGarbageIsAnErrorAfterTheData) {
  const std::string data = TestBytes(1000);
  auto src = Gunzip(Gzip(data) + "garbage!");
  std::string out;
  const absl::Status s = ReadAll(src.get(), &out);
  EXPECT_EQ(out, data);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("incorrect header check"), absl::string_view::npos) << s;
}

TEST(GzipChunkSource, TruncatedStreamYieldsDecodablePrefixThenError) {
  const std::string data = TestBytes(1 << 20);
  const std::string gz = Gzip(data);
  const size_t cut = gz.size() / 2;
  auto src = Gunzip(gz.substr(0, cut));
  std::string out;
  const absl::Status s = ReadAll(src.get(), &out, 8192);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("gzip stream truncated after " + std::to_string(cut) + " bytes"),
            absl::string_view::npos)
      << s;
  // Everything decodable was handed out first: a good share of the data, and exactly a prefix.
  EXPECT_GT(out.size(), data.size() / 4);
  EXPECT_LT(out.size(), data.size());
  EXPECT_EQ(out, data.substr(0, out.size()));
  // The error is sticky.
  uint8_t b;
  EXPECT_EQ(src->Read(&b, 1).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(GzipChunkSource, MissingTrailerStillYieldsAllDataThenError) {
  const std::string data = TestBytes(20000);
  const std::string gz = Gzip(data);
  auto src = Gunzip(gz.substr(0, gz.size() - 8));  // drop CRC32 + ISIZE
  std::string out;
  const absl::Status s = ReadAll(src.get(), &out);
  EXPECT_EQ(out, data);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("truncated"), absl::string_view::npos);
}

TEST(GzipChunkSource, TruncatedInHeaderFailsOnFirstRead) {
  auto src = Gunzip(Gzip("hello").substr(0, 5));
  uint8_t buf[16];
  auto n = src->Read(buf, sizeof(buf));
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(n.status().message().find("gzip stream truncated after 5 bytes"),
            absl::string_view::npos);
}

TEST(GzipChunkSource, EmptyInputIsTruncated) {
  auto src = Gunzip("");
  uint8_t buf[16];
  auto n = src->Read(buf, sizeof(buf));
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.status().message().find("truncated after 0 bytes"), absl::string_view::npos);
}

TEST(GzipChunkSource, CorruptHeaderReportsZlibMessage) {
  std::string gz = Gzip("hello world");
  gz[2] = 9;  // compression method: only 8 (deflate) exists
  auto src = Gunzip(gz);
  uint8_t buf[16];
  auto n = src->Read(buf, sizeof(buf));
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(n.status().message().find("unknown compression method"), absl::string_view::npos)
      << n.status();
}

TEST(GzipChunkSource, CorruptChecksumIsDetectedAfterTheData) {
  const std::string data = TestBytes(5000);
  std::string gz = Gzip(data);
  gz[gz.size() - 8] ^= 0x55;  // CRC32 of the trailer
  auto src = Gunzip(gz);
  std::string out;
  const absl::Status s = ReadAll(src.get(), &out);
  EXPECT_EQ(out, data);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("incorrect data check"), absl::string_view::npos) << s;
}

TEST(GzipChunkSource, CorruptDeflateDataIsInvalidArgumentNeverACrash) {
  const std::string data = TestBytes(100000);
  const std::string gz = Gzip(data);
  int errors = 0;
  for (size_t pos = 10; pos < gz.size() - 8; pos += gz.size() / 37) {
    std::string bad = gz;
    bad[pos] ^= 0xa5;
    auto src = Gunzip(bad);
    std::string out;
    const absl::Status s = ReadAll(src.get(), &out, 1000);
    ASSERT_LE(out.size(), data.size() * 2);
    if (!s.ok()) {
      ++errors;
      EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(s.message().find("gzip"), absl::string_view::npos) << s;
    }
  }
  EXPECT_GT(errors, 30);  // the CRC catches what the decoder does not
}

TEST(GzipChunkSource, ReadsCompressedInputIncrementally) {
  // Incompressible data: the compressed stream is as big as the data. After the first small
  // read, no more than one input buffer of it may have been pulled from the file.
  const std::string data = RandomBytes(4 << 20);
  auto src = Gunzip(Gzip(data, 1), 256 << 10);
  uint8_t buf[1024];
  ASSERT_EQ(*src->Read(buf, sizeof(buf)), sizeof(buf));
  EXPECT_LE(src->compressed_bytes_read(), 256 << 10);
  std::string out(reinterpret_cast<char*>(buf), sizeof(buf));
  ASSERT_TRUE(ReadAll(src.get(), &out, 1 << 16).ok());
  EXPECT_EQ(out, data);
}

TEST(GzipChunkSource, InnerReadErrorComesAfterTheDecodedData) {
  const std::string data = TestBytes(10000);
  const std::string gz = Gzip(data);
  GzipChunkSource src(
      std::make_unique<FailingSource>(gz.substr(0, gz.size() / 2), absl::DataLossError("EIO")), 64);
  std::string out;
  const absl::Status s = ReadAll(&src, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_FALSE(out.empty());
  EXPECT_EQ(out, data.substr(0, out.size()));
}

}  // namespace
}  // namespace tw
