#include "libs/trace/reader/open_trace.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/reader/test_sources.h"

namespace tw {
namespace {

using ::tw::proto::Writer;
using ::tw::testing::Gzip;
using ::tw::testing::ReadAll;
using ::tw::testing::TestBytes;

std::string ProtoTrace(int packets, size_t payload = 20) {
  Writer trace;
  for (int i = 0; i < packets; ++i) {
    Writer packet;
    packet.Varint(8, 5000 + i);
    packet.Bytes(2, std::string(payload, static_cast<char>('a' + i % 26)));
    trace.Message(1, packet);
  }
  return trace.Take();
}

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/tw_open_trace_test_" + std::to_string(getpid()) + "_" + name;
}

std::string WriteFile(const std::string& name, const std::string& contents) {
  const std::string path = TempPath(name);
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

std::string Drain(OpenedTrace* t, absl::Status* status = nullptr, size_t capacity = 10007) {
  std::string out;
  const absl::Status s = ReadAll(t->source.get(), &out, capacity);
  if (status) {
    *status = s;
  } else {
    EXPECT_TRUE(s.ok()) << s;
  }
  return out;
}

TEST(OpenTraceBytes, ProtoStreamsFromTheFirstByte) {
  // Longer than the detection head, so the replayed head and the rest must join seamlessly.
  const std::string trace = ProtoTrace(2000, 100);
  ASSERT_GT(trace.size(), kTraceDetectHeadBytes);
  auto t = OpenTraceBytes(trace);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->format, TraceFormat::kPerfettoProto);
  EXPECT_FALSE(t->gzip);
  EXPECT_EQ(t->file_bytes, static_cast<int64_t>(trace.size()));
  EXPECT_EQ(Drain(&*t), trace);
}

TEST(OpenTraceBytes, GzipIsUnwrappedAndInnerFormatDetected) {
  const std::string trace = ProtoTrace(3000, 50);
  const std::string gz = Gzip(trace);
  auto t = OpenTraceBytes(gz);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->format, TraceFormat::kPerfettoProto);
  EXPECT_TRUE(t->gzip);
  EXPECT_EQ(t->file_bytes, static_cast<int64_t>(gz.size()));
  EXPECT_EQ(Drain(&*t, nullptr, 333), trace);
}

TEST(OpenTraceBytes, GzippedJsonAndSystrace) {
  const std::string json = "{\"traceEvents\":[" + std::string(100000, ' ') + "]}";
  const std::string gz_json = Gzip(json);
  auto t = OpenTraceBytes(gz_json);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->format, TraceFormat::kJson);
  EXPECT_EQ(Drain(&*t), json);

  const std::string gz_sys = Gzip("# tracer: nop\n#\n");
  t = OpenTraceBytes(gz_sys);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->format, TraceFormat::kSystrace);
}

TEST(OpenTraceBytes, EmptyOpensAsAPerfettoTraceWithNoPackets) {
  // trace_processor reads a 0-byte trace as a valid trace with empty tables; so do we.
  auto t = OpenTraceBytes("");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->format, TraceFormat::kPerfettoProto);
  EXPECT_FALSE(t->gzip);
  EXPECT_EQ(t->file_bytes, 0);
  EXPECT_EQ(Drain(&*t), "");

  const std::string gz_empty = Gzip("");
  t = OpenTraceBytes(gz_empty);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->format, TraceFormat::kPerfettoProto);
  EXPECT_TRUE(t->gzip);
  EXPECT_EQ(Drain(&*t), "");
}

TEST(OpenTraceBytes, UnknownFormatNamesTheFirstBytes) {
  auto t = OpenTraceBytes("proc/1/task/1\n");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("unrecognised trace format"), absl::string_view::npos);
  EXPECT_NE(t.status().message().find("\"proc/1/task/1\\n\""), absl::string_view::npos)
      << t.status();
  EXPECT_NE(t.status().message().find("70 72 6f 63"), absl::string_view::npos) << t.status();

  const std::string gz_bin = Gzip(std::string("\x00\x01\x02", 3));
  t = OpenTraceBytes(gz_bin);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("inside gzip"), absl::string_view::npos) << t.status();
  EXPECT_NE(t.status().message().find("00 01 02"), absl::string_view::npos) << t.status();
}

TEST(OpenTraceBytes, GzipInsideGzipIsRejected) {
  const std::string double_gz = Gzip(Gzip("{}"));
  auto t = OpenTraceBytes(double_gz);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(OpenTraceBytes, GzipTooBrokenToDecodeAnythingFailsAtOpen) {
  std::string gz = Gzip(ProtoTrace(10));
  gz[2] = 7;  // unknown compression method
  auto t = OpenTraceBytes(gz);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("gzip"), absl::string_view::npos);

  const std::string header_only = Gzip(ProtoTrace(10)).substr(0, 6);
  t = OpenTraceBytes(header_only);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("gzip stream truncated"), absl::string_view::npos);
}

TEST(OpenTraceBytes, TruncatedGzipOpensAndReportsTruncationAfterTheData) {
  const std::string trace = ProtoTrace(20000, 40);
  const std::string gz = Gzip(trace);
  const std::string cut = gz.substr(0, gz.size() * 3 / 4);
  auto t = OpenTraceBytes(cut);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->format, TraceFormat::kPerfettoProto);
  absl::Status s;
  const std::string out = Drain(&*t, &s);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("gzip stream truncated after"), absl::string_view::npos) << s;
  EXPECT_GT(out.size(), trace.size() / 2);
  EXPECT_EQ(out, trace.substr(0, out.size()));
}

TEST(OpenTraceFile, Errors) {
  auto missing = OpenTraceFile(TempPath("missing.pftrace"));
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);

  auto dir = OpenTraceFile(::testing::TempDir());
  EXPECT_EQ(dir.status().code(), absl::StatusCode::kInvalidArgument);

}

TEST(OpenTraceFile, EmptyFileOpensAsAnEmptyPerfettoTrace) {
  const std::string empty = WriteFile("empty", "");
  auto e = OpenTraceFile(empty);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->format, TraceFormat::kPerfettoProto);
  EXPECT_EQ(e->file_bytes, 0);
  EXPECT_EQ(Drain(&*e), "");
  unlink(empty.c_str());
}

TEST(OpenTraceFile, ReadsPlainAndGzipFiles) {
  const std::string trace = ProtoTrace(5000, 30);
  const std::string plain = WriteFile("plain.pftrace", trace);
  auto t = OpenTraceFile(plain);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->format, TraceFormat::kPerfettoProto);
  EXPECT_EQ(t->file_bytes, static_cast<int64_t>(trace.size()));
  EXPECT_EQ(Drain(&*t), trace);

  const std::string gz = Gzip(trace);
  const std::string gz_path = WriteFile("trace.pftrace.gz", gz);
  t = OpenTraceFile(gz_path);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->gzip);
  EXPECT_EQ(t->file_bytes, static_cast<int64_t>(gz.size()));
  EXPECT_EQ(Drain(&*t), trace);
  unlink(plain.c_str());
  unlink(gz_path.c_str());
}

TEST(OpenTraceFile, RealTraces) {
  const std::filesystem::path dir = std::filesystem::path(TW_SHARED_DIR) / "traces";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no shared traces at " << dir;
  int opened = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename() == "INDEX.md") continue;
    const std::string name = entry.path().filename().string();
    const std::string folder = entry.path().parent_path().filename().string();
    auto t = OpenTraceFile(entry.path().string());
    if (name == "catapult__atrace_procfs_dump") {  // a /proc listing, not a trace
      EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << name;
      continue;
    }
    ASSERT_TRUE(t.ok()) << entry.path() << ": " << t.status();
    const std::string got(TraceFormatName(t->format));
    if (folder == "perfetto") {
      EXPECT_EQ(got, "perfetto_proto") << name;
    }
    if (folder == "chrome_json") {
      EXPECT_EQ(got, "json") << name;
    }
    if (folder == "systrace") {
      EXPECT_TRUE(got == "systrace" || got == "systrace_html" || got == "json") << name << got;
    }
    EXPECT_EQ(t->gzip, entry.path().extension() == ".gz" || name == "mspt__chrome.pftrace") << name;
    EXPECT_EQ(t->file_bytes, static_cast<int64_t>(entry.file_size()));
    const std::string all = Drain(&*t, nullptr, 1 << 20);
    if (t->gzip) {
      EXPECT_GT(all.size(), entry.file_size()) << name;
    } else {
      EXPECT_EQ(all.size(), entry.file_size()) << name;
    }
    ++opened;
  }
  EXPECT_GT(opened, 30);
}

}  // namespace
}  // namespace tw
