// Compressed (`atrace -z`) input, and input that is cut short, corrupt or not systrace at all:
// it loads what it can with a stat, or fails with INVALID_ARGUMENT, never crashes.
#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

#include "tests/trace/systrace/systrace_test_util.h"

namespace tw::systrace_test {
namespace {

std::string Deflate(std::string_view text) {
  uLongf size = compressBound(static_cast<uLong>(text.size()));
  std::string out(size, '\0');
  EXPECT_EQ(
      compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                reinterpret_cast<const Bytef*>(text.data()), static_cast<uLong>(text.size()), 9),
      Z_OK);
  out.resize(size);
  return out;
}

// Enough lines that the compressed form spans several read chunks.
std::string ManySlices(int n) {
  std::string text(kHeader);
  for (int i = 0; i < n; ++i) {
    const std::string ts = std::to_string(100 + i) + ".000000";
    text += "  app-7 (    7) [000] ...1  " + ts + ": tracing_mark_write: B|7|work " +
            std::to_string(i) + "\n";
    text += "  app-7 (    7) [000] ...1  " + std::to_string(100 + i) +
            ".500000: tracing_mark_write: E|7\n";
  }
  return text;
}

TEST(SystraceCompressed, AtraceZOutput) {
  const std::string text = ManySlices(20000);
  const std::string file = "capturing trace... done\nTRACE:\n" + Deflate(text) + "trailing junk";
  auto t = Load(file);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->info().format, "systrace");
  EXPECT_EQ(t->info().decoded_bytes, static_cast<int64_t>(text.size()) + 31);
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM slice"), 20000);
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM stats WHERE value > 0 AND severity != 'info'"), 0);
}

TEST(SystraceCompressed, UncompressedAfterMarker) {
  auto t = Load("TRACE:\n" + ManySlices(3));
  ASSERT_TRUE(t);
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM slice"), 3);
}

TEST(SystraceCompressed, TruncatedKeepsWhatCameBefore) {
  const std::string compressed = Deflate(ManySlices(20000));
  auto t = Load("TRACE:\n" + compressed.substr(0, compressed.size() / 2));
  ASSERT_TRUE(t);
  const int64_t slices = Int(*t, "SELECT COUNT(*) FROM slice");
  EXPECT_GT(slices, 1000);
  EXPECT_LT(slices, 20000);
  EXPECT_EQ(Int(*t, "SELECT value FROM stats WHERE name = 'trace_truncated'"), 1);
}

TEST(SystraceCompressed, CorruptFromTheStartIsAnError) {
  std::string compressed = Deflate(ManySlices(10));
  for (size_t i = 2; i < compressed.size(); ++i) compressed[i] = static_cast<char>(0xff);
  auto t = LoadTraceBytes("TRACE:\n" + compressed);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SystraceDamage, GarbageAfterHeaderIsInvalid) {
  auto t = LoadTraceBytes(std::string(kHeader) + "this is not\nftrace at all\n\x01\x02\x03\n");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("this is not"), std::string_view::npos) << t.status();
}

TEST(SystraceDamage, HeaderOnlyIsAnEmptyTrace) {
  auto t = Load(std::string(kHeader));
  ASSERT_TRUE(t);
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM sched"), 0);
}

TEST(SystraceDamage, BadLinesAmongGoodOnesAreCounted) {
  auto t = Load(std::string(kHeader) +
                "  app-7 (    7) [000] ...1  1.0: tracing_mark_write: B|7|a\n"
                "garbage line\n"
                "  app-7 (    7) [000] ...1  2.0: sched_switch: prev_pid=oops\n"
                "  app-7 (    7) [000] ...1  3.0: tracing_mark_write: E|7\n"
                "  app-7 (    7) [000] ...1  4.0: tracing_mark_write: B|7|cut-off-last-li");
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT ts, dur, name FROM slice ORDER BY ts"),
            "1000000000,2000000000,\"a\"\n4000000000,-1,\"cut-off-last-li\"\n");
  EXPECT_EQ(Int(*t, "SELECT value FROM stats WHERE name = 'systrace_parse_failure'"), 2);
}

TEST(SystraceDamage, TruncatedAnywhere) {
  const std::string text = ManySlices(50);
  for (size_t cut = 0; cut < text.size(); cut += 97) {
    auto t = LoadTraceBytes(std::string_view(text).substr(0, cut));
    if (t.ok()) (void)(*t)->Query("SELECT COUNT(*) FROM slice");
  }
}

TEST(SystraceDamage, HtmlWithoutFtrace) {
  auto t = LoadTraceBytes("<!DOCTYPE html>\n<html><body>hello</body></html>\n");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  t = LoadTraceBytes(
      "<html>\n<script class=\"trace-data\" type=\"application/text\">\n{\"traceEvents\":[]}\n"
      "</script>\n</html>\n");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("JSON"), std::string_view::npos) << t.status();
}

TEST(SystraceDamage, HugeLineDoesNotNeedHugeMemory) {
  std::string text(kHeader);
  text += "  app-7 (    7) [000] ...1  1.0: tracing_mark_write: B|7|";
  text += std::string(8 << 20, 'x');
  text += "\n  app-7 (    7) [000] ...1  2.0: tracing_mark_write: B|7|ok\n";
  auto t = Load(text);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name FROM slice"), "\"ok\"\n");
  EXPECT_EQ(Int(*t, "SELECT value FROM stats WHERE name = 'systrace_parse_failure'"), 1);
}

}  // namespace
}  // namespace tw::systrace_test
