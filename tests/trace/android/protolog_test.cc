// ProtoLog: messages formatted with a viewer config that may come later in the file, interned
// string parameters and stack traces, message ids shared by several formats.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

// TracePacket / InternedData extension fields of ProtoLog and the message fields.
constexpr uint32_t kProtoLogMessage = 104, kProtoLogViewerConfig = 105;
constexpr uint32_t kInternedData = 12, kSequenceFlags = 13;
constexpr uint32_t kStringArgs = 36, kStacktrace = 37;

void AddPacket(proto::Writer& trace, std::optional<int64_t> ts, uint32_t field,
               const proto::Writer& payload, uint32_t flags = 0) {
  proto::Writer packet;
  if (ts) packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(*ts));
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  if (flags) packet.Varint(kSequenceFlags, flags);
  packet.Message(field, payload);
  trace.Message(pf::trace::kPacket, packet);
}

proto::Writer Format(uint64_t id, std::string_view text, int32_t level, uint32_t group,
                     std::string_view location = {}) {
  proto::Writer m;
  m.Fixed64(1, id);
  m.String(2, text);
  m.Varint(3, static_cast<uint64_t>(level));
  m.Varint(4, group);
  if (!location.empty()) m.String(5, location);
  return m;
}

TEST(ProtoLog, MessagesAreFormattedWithTheViewerConfig) {
  proto::Writer trace;
  proto::Writer interned;
  proto::Writer arg;
  arg.Varint(1, 1);
  arg.String(2, "Window{42}");
  interned.Message(kStringArgs, arg);
  proto::Writer stack;
  stack.Varint(1, 1);
  stack.String(2, "at Foo.bar()");
  interned.Message(kStacktrace, stack);
  AddPacket(trace, std::nullopt, kInternedData, interned, /*cleared=*/1);

  proto::Writer message;
  message.Fixed64(1, 100);
  message.Varint(2, 1);          // str_param_iids
  message.Sint(3, -5);           // sint64_params
  message.Sint(3, 255);
  message.Sint(3, 8);
  message.Double(4, 1.5);        // double_params
  message.Varint(5, 1);          // boolean_params
  message.Varint(6, 1);          // stacktrace_iid
  AddPacket(trace, 10, kProtoLogMessage, message, /*needs incremental state=*/2);
  proto::Writer unknown;
  unknown.Fixed64(1, 999);
  AddPacket(trace, 20, kProtoLogMessage, unknown, 2);

  // The config comes last in the file and still applies.
  proto::Writer config;
  config.Message(1, Format(100, "%s moved %d to 0x%x (0o%o), %f%% %b", 1, 7, "W.java:12"));
  proto::Writer group;
  group.Varint(1, 7);
  group.String(2, "WM_DEBUG");
  group.String(3, "WindowManager");
  config.Message(2, group);
  AddPacket(trace, std::nullopt, kProtoLogViewerConfig, config);

  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT ts, level, tag, message, location, stacktrace FROM protolog"),
            (Table{{"10", "DEBUG", "WindowManager", "Window{42} moved -5 to 0xff (0o10), 1.500000% true",
                    "W.java:12", "at Foo.bar()"},
                   {"20", "NULL", "NULL", "NULL", "NULL", "NULL"}}));
  EXPECT_EQ(Scalar((*t)->db(), "SELECT value FROM stats WHERE name = "
                               "'winscope_protolog_message_decoding_failed'"),
            "1");
}

TEST(ProtoLog, SharedMessageIdsAreResolvedByParameterTypes) {
  proto::Writer trace;
  proto::Writer config;
  config.Message(1, Format(5, "count %d", 3, 1));
  config.Message(1, Format(5, "ratio %f", 4, 1));
  proto::Writer group;
  group.Varint(1, 1);
  group.String(3, "Tag");
  config.Message(2, group);
  AddPacket(trace, std::nullopt, kProtoLogViewerConfig, config);
  proto::Writer by_int;
  by_int.Fixed64(1, 5);
  by_int.Sint(3, 3);
  AddPacket(trace, 1, kProtoLogMessage, by_int);
  proto::Writer by_double;
  by_double.Fixed64(1, 5);
  by_double.Double(4, 0.5);
  AddPacket(trace, 2, kProtoLogMessage, by_double);
  proto::Writer neither;
  neither.Fixed64(1, 5);
  AddPacket(trace, 3, kProtoLogMessage, neither);

  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT level, tag, message FROM protolog ORDER BY ts"),
            (Table{{"INFO", "Tag", "count 3"},
                   {"WARN", "Tag", "ratio 0.500000"},
                   {"WARN", "<COLLISION>", "<PROTOLOG COLLISION (id=0x5) NO TYPE MATCH>"}}));
}

TEST(ProtoLog, MultipleTypeMatchesAndUnknownGroupsAreReported) {
  proto::Writer trace;
  proto::Writer config;
  config.Message(1, Format(9, "a=%d", 5, 1));
  config.Message(1, Format(9, "b=%x", 5, 1));
  config.Message(1, Format(10, "%g and %e", 1, 42));  // group 42 is never described
  AddPacket(trace, std::nullopt, kProtoLogViewerConfig, config);
  proto::Writer both;
  both.Fixed64(1, 9);
  both.Sint(3, 255);
  AddPacket(trace, 1, kProtoLogMessage, both);
  proto::Writer doubles;
  doubles.Fixed64(1, 10);
  doubles.Double(4, 8.88);
  doubles.Double(4, 888);
  AddPacket(trace, 2, kProtoLogMessage, doubles);
  proto::Writer too_few;
  too_few.Fixed64(1, 10);
  AddPacket(trace, 3, kProtoLogMessage, too_few);

  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT level, tag, message FROM protolog ORDER BY ts"),
            (Table{{"WARN", "<COLLISION>",
                    "<PROTOLOG COLLISION (id=0x9) MULTIPLE TYPE MATCHES : 'a=255',\n 'b=ff'>"},
                   {"DEBUG", "<UNKNOWN>", "8.88 and 8.880000e+02"},
                   {"DEBUG", "<UNKNOWN>", "[MISSING_PARAM] and [MISSING_PARAM]"}}));
  EXPECT_EQ(Scalar((*t)->db(), "SELECT value FROM stats WHERE name = "
                               "'winscope_protolog_group_tag_missing'"),
            "2");
  EXPECT_EQ(Scalar((*t)->db(), "SELECT value FROM stats WHERE name = "
                               "'winscope_protolog_param_mismatch'"),
            "2");
}

// After a writer reports lost packets, messages that need the sequence's interned strings are
// skipped until it clears its incremental state again; a stack trace interned on another
// sequence is not found and leaves the column NULL.
TEST(ProtoLog, MessagesAfterPacketLossAreSkippedUntilStateIsCleared) {
  proto::Writer trace;
  proto::Writer config;
  config.Message(1, Format(1, "got %s", 1, 1));
  AddPacket(trace, std::nullopt, kProtoLogViewerConfig, config);
  proto::Writer interned;
  proto::Writer arg;
  arg.Varint(1, 1);
  arg.String(2, "first");
  interned.Message(kStringArgs, arg);
  AddPacket(trace, std::nullopt, kInternedData, interned, /*cleared=*/1);
  proto::Writer message;
  message.Fixed64(1, 1);
  message.Varint(2, 1);
  message.Varint(6, 3);  // stacktrace_iid never interned
  AddPacket(trace, 10, kProtoLogMessage, message, 2);
  {
    proto::Writer packet;
    packet.Varint(pf::trace_packet::kTimestamp, 20);
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
    packet.Varint(kSequenceFlags, 2);
    packet.Varint(pf::trace_packet::kPreviousPacketDropped, 1);
    packet.Message(kProtoLogMessage, message);
    trace.Message(pf::trace::kPacket, packet);
  }
  AddPacket(trace, 30, kProtoLogMessage, message, 2);  // state still invalid
  AddPacket(trace, std::nullopt, kInternedData, interned, /*cleared=*/1);
  AddPacket(trace, 40, kProtoLogMessage, message, 2);

  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT ts, message, stacktrace FROM protolog ORDER BY ts"),
            (Table{{"10", "got first", "NULL"}, {"40", "got first", "NULL"}}));
  EXPECT_EQ(Scalar((*t)->db(), "SELECT value FROM stats WHERE name = "
                               "'winscope_protolog_missing_interned_stacktrace_parse_errors'"),
            "2");
}

}  // namespace
}  // namespace tw
