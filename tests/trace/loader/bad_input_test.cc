// Bad input never crashes or hangs the loader: it gets a clear error, or a partial trace whose
// stats say what was lost.

#include <gtest/gtest.h>

#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"

namespace tw {
namespace {

// A small valid trace: one ftrace bundle with two sched_switch events.
std::string ValidTrace() {
  proto::Writer trace;
  for (int i = 0; i < 2; ++i) {
    proto::Writer sw;
    sw.String(pf::sched_switch_ftrace_event::kPrevComm, "a");
    sw.Int(pf::sched_switch_ftrace_event::kPrevPid, 10 + i);
    sw.Int(pf::sched_switch_ftrace_event::kPrevState, 1);
    sw.String(pf::sched_switch_ftrace_event::kNextComm, "b");
    sw.Int(pf::sched_switch_ftrace_event::kNextPid, 11 + i);
    proto::Writer ev;
    ev.Varint(pf::ftrace_event::kTimestamp, 1000 + i * 10);
    ev.Varint(pf::ftrace_event::kPid, 10 + i);
    ev.Message(pf::ftrace_event::kSchedSwitch, sw);
    proto::Writer bundle;
    bundle.Varint(pf::ftrace_event_bundle::kCpu, 0);
    bundle.Message(pf::ftrace_event_bundle::kEvent, ev);
    proto::Writer packet;
    packet.Message(pf::trace_packet::kFtraceEvents, bundle);
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
    trace.Message(pf::trace::kPacket, packet);
  }
  return trace.Take();
}

int64_t Count(LoadedTrace& t, const std::string& sql) {
  auto r = t.Query(sql);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() && !r->rows.empty() ? r->rows[0][0].int_value : -1;
}

TEST(BadInputTest, ValidTraceLoads) {
  auto t = LoadTraceBytes(ValidTrace());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Count(**t, "SELECT COUNT(*) FROM sched"), 2);
}

TEST(BadInputTest, GarbageIsAClearError) {
  std::string garbage(4096, '\0');
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>((i * 7919) % 251);
  auto t = LoadTraceBytes(garbage);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(BadInputTest, JsonIsNotMistakenForProto) {
  auto t = LoadTraceBytes(R"({"traceEvents": []})");
  // Either imported as JSON or refused as an unsupported format; never decoded as protobuf.
  if (!t.ok()) {
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  } else {
    EXPECT_EQ((*t)->info().format, "json");
  }
}

TEST(BadInputTest, TruncatedTraceKeepsWhatCameBefore) {
  const std::string full = ValidTrace();
  auto t = LoadTraceBytes(std::string_view(full).substr(0, full.size() - 5));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Count(**t, "SELECT COUNT(*) FROM sched"), 1);
  EXPECT_EQ(Count(**t, "SELECT value FROM stats WHERE name = 'trace_truncated'"), 1);
}

TEST(BadInputTest, ZeroLengthPacketsAndHugeLengthsAreSurvived) {
  std::string bytes = ValidTrace();
  bytes += std::string("\x0a\x00", 2);                  // a 0-length packet
  bytes += std::string("\x0a\xff\xff\xff\xff\x0f", 6);  // a 4 GiB packet that never arrives
  auto t = LoadTraceBytes(bytes);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Count(**t, "SELECT COUNT(*) FROM sched"), 2);
  EXPECT_EQ(Count(**t, "SELECT value FROM stats WHERE name = 'empty_packets'"), 1);
}

TEST(BadInputTest, CorruptNestedLengthsAreCountedNotFatal) {
  proto::Writer trace;
  // A packet whose ftrace bundle claims more bytes than the packet holds.
  std::string packet = "\x0a\x05\x08\x01\x12\x09\x01";  // bundle field, inner length 9 of 3
  trace.Bytes(pf::trace::kPacket, packet);
  std::string bytes = ValidTrace() + trace.Take();
  auto t = LoadTraceBytes(bytes);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Count(**t, "SELECT COUNT(*) FROM sched"), 2);
}

TEST(BadInputTest, OverflowingVarintStopsTheSplitCleanly) {
  std::string bytes = ValidTrace() + std::string("\x0a") + std::string(11, '\xff');
  auto t = LoadTraceBytes(bytes);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Count(**t, "SELECT COUNT(*) FROM sched"), 2);
}

TEST(BadInputTest, MissingFileIsNotFound) {
  auto t = LoadTraceFile("/nonexistent/trace.pftrace");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace tw
