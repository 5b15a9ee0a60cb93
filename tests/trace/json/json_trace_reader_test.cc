// The streaming outer-structure reader: which parts of a JSON trace it hands out, how it copes
// with reads that split values anywhere, and what it says about damaged or truncated files.

#include "libs/trace/importers/json/json_trace_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/trace/reader/test_sources.h"

namespace tw {
namespace {

using Kind = JsonTraceReader::Kind;

struct Part {
  Kind kind;
  std::string text;
  bool operator==(const Part& o) const { return kind == o.kind && text == o.text; }
};

std::ostream& operator<<(std::ostream& os, const Part& p) {
  return os << static_cast<int>(p.kind) << ":" << p.text;
}

struct Outcome {
  std::vector<Part> parts;  // without the final kEnd
  absl::Status error;
  bool truncated = false;
};

Outcome ReadAllParts(ChunkSource* source, size_t max_value_bytes = 1 << 20) {
  JsonTraceReader reader(source, max_value_bytes);
  Outcome out;
  for (int guard = 0; guard < 100000; ++guard) {
    absl::StatusOr<JsonTraceReader::Item> item = reader.Next();
    if (!item.ok()) {
      out.error = item.status();
      break;
    }
    if (item->kind == Kind::kEnd) break;
    out.parts.push_back({item->kind, std::string(item->text)});
  }
  out.truncated = reader.truncated();
  return out;
}

Outcome ReadAllParts(const std::string& json, size_t max_value_bytes = 1 << 20) {
  MemoryChunkSource source(json);
  return ReadAllParts(&source, max_value_bytes);
}

TEST(JsonTraceReaderTest, ObjectFormHandsOutEventsAndTheValuesTheImporterReads) {
  const Outcome o = ReadAllParts(
      R"({"displayTimeUnit": "ns", "stackFrames": {"1": {"name": "]}"}},
          "traceEvents": [ {"ph": "B", "name": "a,b"} , {"ph":"E"} ],
          "metadata": {"k": 1}})");
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_FALSE(o.truncated);
  EXPECT_EQ(o.parts, (std::vector<Part>{{Kind::kDisplayTimeUnit, R"("ns")"},
                                        {Kind::kEvent, R"({"ph": "B", "name": "a,b"})"},
                                        {Kind::kEvent, R"({"ph":"E"})"},
                                        {Kind::kMetadata, R"({"k": 1})"}}));
}

TEST(JsonTraceReaderTest, BareArrayWithByteOrderMark) {
  const Outcome o = ReadAllParts("\xEF\xBB\xBF  [{\"ph\":\"i\"},{\"ph\":\"X\"}]\n");
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_FALSE(o.truncated);
  ASSERT_EQ(o.parts.size(), 2u);
  EXPECT_EQ(o.parts[1].text, R"({"ph":"X"})");
}

TEST(JsonTraceReaderTest, UnterminatedBareArrayIsACompleteTrace) {
  // Tracers that die mid-write leave the array open; trace_processor accepts that.
  const Outcome o = ReadAllParts("[{\"ph\":\"i\"},\n{\"ph\":\"X\"},\n");
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_FALSE(o.truncated);
  EXPECT_EQ(o.parts.size(), 2u);
}

TEST(JsonTraceReaderTest, EventCutOffMidwayIsTruncation) {
  const Outcome o = ReadAllParts(R"({"traceEvents":[{"ph":"i"},{"ph":"X","na)");
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_TRUE(o.truncated);
  EXPECT_EQ(o.parts.size(), 1u);
}

TEST(JsonTraceReaderTest, ObjectWithoutItsClosingBraceIsTruncation) {
  const Outcome o = ReadAllParts(R"({"traceEvents":[{"ph":"i"}])");
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_TRUE(o.truncated);
  EXPECT_EQ(o.parts.size(), 1u);
}

TEST(JsonTraceReaderTest, StrayCommasAreTolerated) {
  const Outcome o = ReadAllParts(R"({"traceEvents":[,{"ph":"i"},,{"ph":"i"},],})");
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_FALSE(o.truncated);
  EXPECT_EQ(o.parts.size(), 2u);
}

TEST(JsonTraceReaderTest, TrailingDataIsReportedNotFatal) {
  const Outcome o = ReadAllParts(std::string("[{\"ph\":\"i\"}]\n\0\0", 15) + "garbage");
  ASSERT_TRUE(o.error.ok()) << o.error;
  ASSERT_EQ(o.parts.size(), 2u);
  EXPECT_EQ(o.parts[1].kind, Kind::kTrailingData);
}

TEST(JsonTraceReaderTest, NulPaddingAfterTheTraceIsNotData) {
  const Outcome o = ReadAllParts(std::string("[{\"ph\":\"i\"}]\0\0\0\0", 16));
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_EQ(o.parts.size(), 1u);
}

TEST(JsonTraceReaderTest, SystemTraceEventsStreamsUnescapedLines) {
  const Outcome o = ReadAllParts(
      R"({"traceEvents":[],"systemTraceEvents":"# tracer: nop\n  sh-1 [000] 1.0: a: \"q\"\t\u0041\n"})");
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_EQ(o.parts, (std::vector<Part>{{Kind::kSystemTraceLine, "# tracer: nop"},
                                        {Kind::kSystemTraceLine, "  sh-1 [000] 1.0: a: \"q\"\tA"}}));
}

TEST(JsonTraceReaderTest, NonStringSystemTraceEventsIsSkipped) {
  const Outcome o = ReadAllParts(R"({"systemTraceEvents": {"events": [1, 2]}, "traceEvents": []})");
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_EQ(o.parts, (std::vector<Part>{{Kind::kSystemTraceNotText, ""}}));
}

TEST(JsonTraceReaderTest, OversizedEventsAreSkippedInBoundedMemory) {
  const std::string big = "{\"ph\":\"i\",\"args\":{\"s\":\"" + std::string(10000, 'x') + "\"}}";
  const Outcome o = ReadAllParts("[" + big + ",{\"ph\":\"E\"}]", /*max_value_bytes=*/1000);
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_EQ(o.parts, (std::vector<Part>{{Kind::kOversizedEvent, ""}, {Kind::kEvent, R"({"ph":"E"})"}}));
}

TEST(JsonTraceReaderTest, DribbledReadsGiveTheSamePartsAsOneRead) {
  std::string json = R"({"metadata":{"a":"b"},"traceEvents":[)";
  for (int i = 0; i < 200; ++i) {
    if (i) json += ",";
    json += R"({"ph":"X","name":"s\"{[)" + std::to_string(i) + R"(","ts":)" + std::to_string(i) +
            R"(,"args":{"n":[1,{"k":"}"}]}})";
  }
  json += R"(],"systemTraceEvents":"line one\nline two\n","other":[1,2,{"x":null}]})";
  const Outcome whole = ReadAllParts(json);
  ASSERT_TRUE(whole.error.ok()) << whole.error;
  EXPECT_EQ(whole.parts.size(), 203u);
  for (uint32_t seed : {1u, 7u, 1234u}) {
    testing::DribbleSource dribble(json, seed);
    const Outcome split = ReadAllParts(&dribble);
    ASSERT_TRUE(split.error.ok()) << split.error;
    EXPECT_EQ(split.parts, whole.parts) << "seed " << seed;
    EXPECT_FALSE(split.truncated);
  }
}

TEST(JsonTraceReaderTest, StructuralDamageIsAnErrorThatSaysWhere) {
  for (const std::string bad : {"", "   ", "hello", "{\"traceEvents\": 5}", "{\"a\" 1}",
                                "{\"a\":1 \"b\":2}", "[{\"ph\":\"i\"]", "{3: 4}"}) {
    const Outcome o = ReadAllParts(bad);
    EXPECT_FALSE(o.error.ok()) << "'" << bad << "'";
    EXPECT_EQ(o.error.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(o.error.message().find("JSON trace"), std::string::npos) << o.error;
  }
  const Outcome o = ReadAllParts(R"({"traceEvents":[{"ph":"i"}, {"a":[}]})");
  EXPECT_NE(o.error.message().find("at byte"), std::string::npos) << o.error;
}

TEST(JsonTraceReaderTest, ReadErrorOfTheSourceEndsAsTruncation) {
  testing::FailingSource source(R"({"traceEvents":[{"ph":"i"},{"ph")",
                                absl::DataLossError("disk gone"));
  JsonTraceReader reader(&source, 1 << 20);
  int events = 0;
  for (;;) {
    absl::StatusOr<JsonTraceReader::Item> item = reader.Next();
    ASSERT_TRUE(item.ok()) << item.status();
    if (item->kind == Kind::kEnd) break;
    ++events;
  }
  EXPECT_EQ(events, 1);
  EXPECT_TRUE(reader.truncated());
  EXPECT_EQ(reader.source_error().code(), absl::StatusCode::kDataLoss);
}

TEST(JsonTraceReaderTest, DeepNestingInsideAnEventDoesNotRecurse) {
  const std::string deep = "[{\"ph\":\"i\",\"args\":" + std::string(200000, '[') +
                           std::string(200000, ']') + "}]";
  const Outcome o = ReadAllParts(deep, 1 << 22);
  ASSERT_TRUE(o.error.ok()) << o.error;
  EXPECT_EQ(o.parts.size(), 1u);
}

}  // namespace
}  // namespace tw
