#include "libs/trace/reader/format_detector.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "gtest/gtest.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/reader/test_sources.h"

namespace tw {
namespace {

using ::tw::proto::Writer;
using ::tw::testing::Gzip;

// A small but realistic trace: packets with a timestamp, a sequence id and a nested message.
std::string ProtoTrace(int packets) {
  Writer trace;
  for (int i = 0; i < packets; ++i) {
    Writer packet;
    packet.Varint(8, 1000000000ull + i);  // timestamp
    packet.Varint(10, 1);                 // trusted_packet_sequence_id
    Writer event;
    event.Varint(1, 42);
    event.String(2, "slice name");
    packet.Message(11, event);
    trace.Message(1, packet);
  }
  return trace.Take();
}

TEST(DetectTraceFormat, EmptyAndGzip) {
  EXPECT_EQ(DetectTraceFormat(""), TraceFormat::kEmpty);
  EXPECT_EQ(DetectTraceFormat(Gzip("{}")), TraceFormat::kGzip);
  EXPECT_EQ(DetectTraceFormat(std::string("\x1f\x8b", 2)), TraceFormat::kGzip);
  EXPECT_NE(DetectTraceFormat(std::string("\x1f", 1)), TraceFormat::kGzip);
}

TEST(DetectTraceFormat, PerfettoProto) {
  EXPECT_EQ(DetectTraceFormat(ProtoTrace(1)), TraceFormat::kPerfettoProto);
  EXPECT_EQ(DetectTraceFormat(ProtoTrace(500)), TraceFormat::kPerfettoProto);
}

TEST(DetectTraceFormat, ProtoWhoseFirstPacketIsLongerThanTheHead) {
  Writer packet;
  packet.Varint(8, 123);
  packet.Bytes(2, std::string(100000, 'x'));
  Writer trace;
  trace.Message(1, packet);
  const std::string head = trace.data().substr(0, 4096);
  EXPECT_EQ(DetectTraceFormat(head), TraceFormat::kPerfettoProto);
}

TEST(DetectTraceFormat, ProtoStartingWithZeroLengthPacket) {
  Writer trace;
  trace.Bytes(1, "");
  const std::string rest = ProtoTrace(3);
  EXPECT_EQ(DetectTraceFormat(trace.data() + rest), TraceFormat::kPerfettoProto);
  EXPECT_EQ(DetectTraceFormat(trace.data()), TraceFormat::kPerfettoProto);  // "0a 00"
}

TEST(DetectTraceFormat, JsonIsNeverProtoEvenWithALeadingNewline) {
  // "\n{" reads as a protobuf key (field 1, bytes) and a length of 123.
  EXPECT_EQ(DetectTraceFormat("\n{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 2, "
                              "\"pid\": 1, \"tid\": 1, \"name\": \"a\"}]}\n"),
            TraceFormat::kJson);
  EXPECT_EQ(DetectTraceFormat("\n[{\"ph\":\"B\"}]"), TraceFormat::kJson);
  EXPECT_EQ(DetectTraceFormat("\n\n  \t[\n{\"ph\":\"B\"}]"), TraceFormat::kJson);
}

TEST(DetectTraceFormat, JsonForms) {
  EXPECT_EQ(DetectTraceFormat("{\"traceEvents\":[]}"), TraceFormat::kJson);
  EXPECT_EQ(DetectTraceFormat("[{\"ph\":\"X\"}]"), TraceFormat::kJson);
  EXPECT_EQ(DetectTraceFormat("[\n  {\"ph\":\"X\"}"), TraceFormat::kJson);  // unterminated is ok
  EXPECT_EQ(DetectTraceFormat("{}"), TraceFormat::kJson);
  EXPECT_EQ(DetectTraceFormat("[]"), TraceFormat::kJson);
  EXPECT_EQ(DetectTraceFormat("\xEF\xBB\xBF{\"traceEvents\":[]}"), TraceFormat::kJson);  // BOM
  EXPECT_EQ(DetectTraceFormat("  \r\n{ \"a\": 1 }"), TraceFormat::kJson);
}

TEST(DetectTraceFormat, BraceFollowedByNonJsonIsNotJson) {
  EXPECT_EQ(DetectTraceFormat("{{{{ not json"), TraceFormat::kUnknown);
  EXPECT_EQ(DetectTraceFormat("[[garbage"), TraceFormat::kUnknown);
}

TEST(DetectTraceFormat, SystraceText) {
  EXPECT_EQ(DetectTraceFormat("# tracer: nop\n#\n"), TraceFormat::kSystrace);
  // atrace's raw output starts with a newline: "\n#" is also a protobuf key + length 35.
  EXPECT_EQ(DetectTraceFormat("\n# tracer: nop\n#\n# entries-in-buffer/entries-written: 1/1\n"),
            TraceFormat::kSystrace);
  EXPECT_EQ(DetectTraceFormat(
                "          <idle>-0     [001] d..3  1234.567890: sched_switch: prev_comm=swapper"),
            TraceFormat::kSystrace);
  EXPECT_EQ(DetectTraceFormat("  <...>-1234  (-----) [001] ....  123.456: tracing_mark_write: "
                              "B|1234|foo\n"),
            TraceFormat::kSystrace);
  EXPECT_EQ(DetectTraceFormat("# some comment\n\n surfaceflinger-612 ( 612) [000] d..2 "
                              "49.500100: sched_wakeup: comm=x\n"),
            TraceFormat::kSystrace);
}

TEST(DetectTraceFormat, AtraceHeader) {
  EXPECT_EQ(DetectTraceFormat("TRACE:\n# tracer: nop\n"), TraceFormat::kSystrace);
  // atrace -z: zlib data follows the marker.
  EXPECT_EQ(DetectTraceFormat("TRACE:\n" + testing::Compress("# tracer: nop\n", 15)),
            TraceFormat::kSystrace);
  EXPECT_EQ(DetectTraceFormat("capturing trace... done\nTRACE:\r\n# tracer: nop\n"),
            TraceFormat::kSystrace);
  EXPECT_EQ(DetectTraceFormat("NOT A TRACE: really\n"), TraceFormat::kUnknown);
}

TEST(DetectTraceFormat, SystraceHtml) {
  EXPECT_EQ(DetectTraceFormat("<!DOCTYPE html>\n<html>\n"), TraceFormat::kSystraceHtml);
  EXPECT_EQ(DetectTraceFormat("<html><head>"), TraceFormat::kSystraceHtml);
  EXPECT_EQ(DetectTraceFormat("\n  <!doctype HTML>"), TraceFormat::kSystraceHtml);
  EXPECT_EQ(DetectTraceFormat("<!-- comment -->\n<HTML lang=en>"), TraceFormat::kSystraceHtml);
  EXPECT_EQ(DetectTraceFormat("<?xml version=\"1.0\"?><svg>"), TraceFormat::kUnknown);
}

TEST(DetectTraceFormat, Unknown) {
  EXPECT_EQ(DetectTraceFormat("proc/1/task/1\n/proc/10/task/10\n"), TraceFormat::kUnknown);
  EXPECT_EQ(DetectTraceFormat("hello world"), TraceFormat::kUnknown);
  EXPECT_EQ(DetectTraceFormat(std::string("\x00\x01\x02\x03", 4)), TraceFormat::kUnknown);
  EXPECT_EQ(DetectTraceFormat(std::string(1, '\x0a')), TraceFormat::kUnknown);  // text: "\n"
  EXPECT_EQ(DetectTraceFormat("\nhello world"), TraceFormat::kUnknown);
}

TEST(DetectTraceFormat, MalformedProtoIsNotProto) {
  // Field 1 with an 11-byte length varint.
  EXPECT_EQ(DetectTraceFormat(std::string("\x0a") + std::string(11, '\xff')),
            TraceFormat::kUnknown);
  // A complete packet whose payload uses a group wire type (3).
  EXPECT_EQ(DetectTraceFormat(std::string("\x0a\x02\x0b\x00", 4)), TraceFormat::kUnknown);
  // A complete packet whose last field runs past the packet's end.
  EXPECT_EQ(DetectTraceFormat(std::string("\x0a\x02\x12\x05xxxxxx", 10)), TraceFormat::kUnknown);
  // First field is not packet = 1.
  EXPECT_EQ(DetectTraceFormat(std::string("\x08\x01\x0a\x00", 4)), TraceFormat::kUnknown);
}

TEST(DetectTraceFormat, CpusHeaderBeforeFtraceText) {
  EXPECT_EQ(DetectTraceFormat("cpus=8\n  chrome-1000  [001] ...1  100.000000: "
                              "tracing_mark_write: B|1000|x\n"),
            TraceFormat::kSystrace);
}

TEST(DetectTraceFormat, FlagsGluedToTheTimestampAreStillFtraceText) {
  // Some writers leave no space between the irq flags and the timestamp.
  EXPECT_EQ(DetectTraceFormat("cpus=4\n  app-901  (  900) [002] dN.1742.000100: "
                              "tracing_mark_write: B|900|draw\n"),
            TraceFormat::kSystrace);
  EXPECT_EQ(DetectTraceFormat("  app-901  (  900) [002] ....12.5: sched_waking: comm=x\n"),
            TraceFormat::kSystrace);
  // Not flags: letters where the flag digits go, or too few characters.
  EXPECT_EQ(DetectTraceFormat("  app-901  (  900) [002] abcxyz12.5: x: y\n"),
            TraceFormat::kUnknown);
}

TEST(DetectTraceFormat, DamageAfterAGoodPacketIsStillProto) {
  // One well-formed packet, then a field with number 0: the importer keeps the first packet
  // and reports the damage, so detection must not reject the file.
  EXPECT_EQ(DetectTraceFormat(std::string("\x0a\x02\x08\x01\x02\x00", 6)),
            TraceFormat::kPerfettoProto);
}

TEST(TraceFormatName, AllFormatsHaveStableNames) {
  const std::map<TraceFormat, std::string_view> names = {
      {TraceFormat::kUnknown, "unknown"},
      {TraceFormat::kPerfettoProto, "perfetto_proto"},
      {TraceFormat::kJson, "json"},
      {TraceFormat::kSystrace, "systrace"},
      {TraceFormat::kSystraceHtml, "systrace_html"},
      {TraceFormat::kGzip, "gzip"},
      {TraceFormat::kEmpty, "empty"}};
  for (const auto& [format, name] : names) EXPECT_EQ(TraceFormatName(format), name);
}

TEST(DescribeTraceHead, ShowsTextOrBinaryAndHex) {
  EXPECT_EQ(DescribeTraceHead("proc/1\n"),
            "text starting \"proc/1\\n\" (hex 70 72 6f 63 2f 31 0a)");
  const std::string d =
      DescribeTraceHead(std::string("\x00\xff\x10\x41", 4) + std::string(20, 'a'));
  EXPECT_NE(d.find("binary data"), std::string::npos) << d;
  EXPECT_NE(d.find("00 ff 10 41 61"), std::string::npos) << d;
  EXPECT_NE(d.find("..."), std::string::npos) << d;
  EXPECT_EQ(DescribeTraceHead(""), "no bytes");
}

// ---- real files ------------------------------------------------------------------------------

std::string ReadHead(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::string head(kTraceDetectHeadBytes, '\0');
  f.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(f.gcount()));
  return head;
}

TEST(DetectTraceFormat, RealTraces) {
  const std::filesystem::path dir = std::filesystem::path(TW_SHARED_DIR) / "traces";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no shared traces at " << dir;

  // What each real file's raw head is, by folder, with the exceptions named.
  const std::map<std::string, TraceFormat> exceptions = {
      {"mspt__chrome.pftrace", TraceFormat::kGzip},             // a gzip'd proto despite its name
      {"catapult__atrace_procfs_dump", TraceFormat::kUnknown},  // a /proc listing, not a trace
      {"catapult__profile-chrome_systrace_perf_chrome_data", TraceFormat::kJson},
  };
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename() == "INDEX.md") continue;
    const std::string name = entry.path().filename().string();
    const std::string folder = entry.path().parent_path().filename().string();
    TraceFormat want;
    if (auto it = exceptions.find(name); it != exceptions.end()) {
      want = it->second;
    } else if (entry.path().extension() == ".gz") {
      want = TraceFormat::kGzip;
    } else if (folder == "perfetto") {
      want = TraceFormat::kPerfettoProto;
    } else if (folder == "chrome_json") {
      want = TraceFormat::kJson;
    } else if (entry.path().extension() == ".html") {
      want = TraceFormat::kSystraceHtml;
    } else if (folder == "systrace") {
      want = TraceFormat::kSystrace;
    } else {
      continue;  // a folder added later; open_trace_test covers loading everything
    }
    EXPECT_EQ(TraceFormatName(DetectTraceFormat(ReadHead(entry.path()))), TraceFormatName(want))
        << entry.path();
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

}  // namespace
}  // namespace tw
