#include "libs/trace/reader/chunk_source.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/trace/reader/test_sources.h"

namespace tw {
namespace {

using ::tw::testing::DribbleSource;
using ::tw::testing::FailingSource;
using ::tw::testing::ReadAll;
using ::tw::testing::TestBytes;

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/tw_chunk_source_test_" + std::to_string(getpid()) + "_" + name;
}

std::string WriteFile(const std::string& name, const std::string& contents) {
  const std::string path = TempPath(name);
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

TEST(MemoryChunkSource, ReadsEverythingThenZeroForever) {
  const std::string data = TestBytes(10000);
  MemoryChunkSource src(data);
  std::string out;
  ASSERT_TRUE(ReadAll(&src, &out, 333).ok());
  EXPECT_EQ(out, data);
  uint8_t b;
  EXPECT_EQ(*src.Read(&b, 1), 0u);
  EXPECT_EQ(*src.Read(&b, 1), 0u);
}

TEST(MemoryChunkSource, RespectsCapacity) {
  MemoryChunkSource src("abcdef");
  uint8_t buf[4];
  EXPECT_EQ(*src.Read(buf, 4), 4u);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), 4), "abcd");
  EXPECT_EQ(*src.Read(buf, 4), 2u);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), 2), "ef");
}

TEST(MemoryChunkSource, ViewsTheCallersBytesWithoutCopying) {
  std::string data = "hello";
  MemoryChunkSource src(data);
  data[0] = 'j';  // visible through the source: it holds a view, not a copy
  std::string out;
  ASSERT_TRUE(ReadAll(&src, &out).ok());
  EXPECT_EQ(out, "jello");
}

TEST(MemoryChunkSource, EmptyIsImmediatelyAtEnd) {
  MemoryChunkSource src("");
  uint8_t b;
  EXPECT_EQ(*src.Read(&b, 1), 0u);
}

TEST(FileChunkSource, ReadsWholeFileAndReportsSize) {
  const std::string data = TestBytes(3 << 20);
  const std::string path = WriteFile("whole", data);
  auto src = FileChunkSource::Open(path);
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_EQ((*src)->size_bytes(), static_cast<int64_t>(data.size()));
  std::string out;
  ASSERT_TRUE(ReadAll(src->get(), &out, 100000).ok());
  EXPECT_EQ(out, data);
  unlink(path.c_str());
}

TEST(FileChunkSource, EmptyFileReadsZero) {
  const std::string path = WriteFile("empty", "");
  auto src = FileChunkSource::Open(path);
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_EQ((*src)->size_bytes(), 0);
  uint8_t b;
  EXPECT_EQ(*(*src)->Read(&b, 1), 0u);
  unlink(path.c_str());
}

TEST(FileChunkSource, MissingFileIsNotFound) {
  auto src = FileChunkSource::Open(TempPath("does_not_exist"));
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(src.status().message().find("does_not_exist"), absl::string_view::npos);
}

TEST(FileChunkSource, MissingDirectoryComponentIsNotFound) {
  const std::string file = WriteFile("plain", "x");
  auto src = FileChunkSource::Open(file + "/child");  // ENOTDIR
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.status().code(), absl::StatusCode::kNotFound);
  unlink(file.c_str());
}

TEST(FileChunkSource, DirectoryIsInvalidArgument) {
  auto src = FileChunkSource::Open(::testing::TempDir());
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(src.status().message().find("directory"), absl::string_view::npos);
}

TEST(FileChunkSource, UnreadableFileIsPermissionDenied) {
  if (geteuid() == 0) GTEST_SKIP() << "running as root: file permissions are not enforced";
  const std::string path = WriteFile("unreadable", "secret");
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  auto src = FileChunkSource::Open(path);
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.status().code(), absl::StatusCode::kPermissionDenied);
  unlink(path.c_str());
}

TEST(FileChunkSource, PipeHasUnknownSize) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_EQ(write(fds[1], "abc", 3), 3);
  close(fds[1]);
  auto src = FileChunkSource::Open("/proc/self/fd/" + std::to_string(fds[0]));
  close(fds[0]);
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_EQ((*src)->size_bytes(), -1);
  std::string out;
  ASSERT_TRUE(ReadAll(src->get(), &out).ok());
  EXPECT_EQ(out, "abc");
}

TEST(PrefixedChunkSource, ReplaysPrefixThenInner) {
  PrefixedChunkSource src("head", std::make_unique<MemoryChunkSource>("tail"));
  std::string out;
  ASSERT_TRUE(ReadAll(&src, &out, 3).ok());
  EXPECT_EQ(out, "headtail");
}

TEST(PrefixedChunkSource, EmptyPrefixIsTransparent) {
  PrefixedChunkSource src("", std::make_unique<DribbleSource>("abcdefgh"));
  std::string out;
  ASSERT_TRUE(ReadAll(&src, &out).ok());
  EXPECT_EQ(out, "abcdefgh");
}

TEST(PrefixedChunkSource, NeverMixesPrefixAndInnerInOneRead) {
  // Keeps Read simple and lets the inner source's errors surface at the exact boundary.
  PrefixedChunkSource src("ab", std::make_unique<MemoryChunkSource>("cd"));
  uint8_t buf[16];
  EXPECT_EQ(*src.Read(buf, 16), 2u);
  EXPECT_EQ(*src.Read(buf, 16), 2u);
  EXPECT_EQ(*src.Read(buf, 16), 0u);
}

TEST(PrefixedChunkSource, InnerErrorsPassThrough) {
  PrefixedChunkSource src("ab", std::make_unique<FailingSource>("cd", absl::DataLossError("eio")));
  std::string out;
  const absl::Status s = ReadAll(&src, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(out, "abcd");
}

TEST(ReadUpTo, GathersShortReads) {
  DribbleSource src(TestBytes(1000));
  auto head = ReadUpTo(&src, 500);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(*head, TestBytes(1000).substr(0, 500));
  EXPECT_GT(src.reads(), 60);  // 1..7 bytes per read
}

TEST(ReadUpTo, StopsAtEnd) {
  MemoryChunkSource src("short");
  EXPECT_EQ(*ReadUpTo(&src, 100), "short");
}

TEST(ReadUpTo, ErrorOnlyWhenNothingWasRead) {
  FailingSource some("abc", absl::DataLossError("eio"));
  auto head = ReadUpTo(&some, 100);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(*head, "abc");

  FailingSource none("", absl::DataLossError("eio"));
  EXPECT_EQ(ReadUpTo(&none, 100).status().code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace tw
