// Ftrace events from before the trace's ftrace data can be trusted: before tracing started they
// are dropped (unless the buffer was preserved); before every cpu's buffer is complete they keep
// only their ftrace_event row — no sched slices, thread states or atrace slices.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;
namespace bundle_f = pf::ftrace_event_bundle;

proto::Writer Switch(int64_t ts, int32_t prev, int32_t next) {
  namespace ss = pf::sched_switch_ftrace_event;
  proto::Writer sw;
  sw.String(ss::kPrevComm, "t" + std::to_string(prev));
  sw.Int(ss::kPrevPid, prev);
  sw.Int(ss::kPrevState, 1);
  sw.String(ss::kNextComm, "t" + std::to_string(next));
  sw.Int(ss::kNextPid, next);
  proto::Writer e;
  e.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(ts));
  e.Int(pf::ftrace_event::kPid, prev);
  e.Message(pf::ftrace_event::kSchedSwitch, sw);
  return e;
}

proto::Writer Print(int64_t ts, int32_t pid, const std::string& text) {
  proto::Writer p;
  p.String(pf::print_ftrace_event::kBuf, text);
  proto::Writer e;
  e.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(ts));
  e.Int(pf::ftrace_event::kPid, pid);
  e.Message(pf::ftrace_event::kPrint, p);
  return e;
}

void AddBundle(proto::Writer& trace, uint32_t cpu, std::optional<int64_t> previous_bundle_end,
               const std::vector<proto::Writer>& events) {
  proto::Writer bundle;
  bundle.Varint(bundle_f::kCpu, cpu);
  if (previous_bundle_end) {
    bundle.Varint(bundle_f::kPreviousBundleEndTimestamp,
                  static_cast<uint64_t>(*previous_bundle_end));
  }
  for (const proto::Writer& e : events) bundle.Message(bundle_f::kEvent, e);
  proto::Writer packet;
  packet.Message(pf::trace_packet::kFtraceEvents, bundle);
  trace.Message(pf::trace::kPacket, packet);
}

void AddTracingStarted(proto::Writer& trace, int64_t ts) {
  proto::Writer event;
  event.Bool(pf::tracing_service_event::kTracingStarted, true);
  proto::Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
  packet.Message(pf::trace_packet::kServiceEvent, event);
  trace.Message(pf::trace::kPacket, packet);
}

void AddPreservedBuffer(proto::Writer& trace) {
  proto::Writer stats;
  stats.Varint(pf::ftrace_stats::kPhase, 1);  // START_OF_TRACE
  stats.Bool(pf::ftrace_stats::kPreserveFtraceBuffer, true);
  proto::Writer packet;
  packet.Message(pf::trace_packet::kFtraceStats, stats);
  trace.Message(pf::trace::kPacket, packet);
}

constexpr char kSched[] =
    "SELECT ts, dur, tid FROM sched JOIN thread USING (utid) ORDER BY ts";

TEST(FtraceDropWindow, EventsBeforeTracingStartedAreDroppedAndCounted) {
  proto::Writer trace;
  AddTracingStarted(trace, 2000);
  AddBundle(trace, 0, std::nullopt,
            {Switch(1500, 0, 10), Print(1600, 10, "B|10|early"), Switch(2500, 10, 11),
             Switch(2600, 11, 12)});
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), kSched), (Table{{"2500", "100", "11"}, {"2600", "-1", "12"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT value FROM stats WHERE name = "
                            "'ftrace_packet_before_tracing_start'"),
            "2");
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM ftrace_event WHERE ts < 2000"), "0");
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM slice"), "0");
}

TEST(FtraceDropWindow, APreservedBufferKeepsWhatPredatesTracing) {
  proto::Writer trace;
  AddPreservedBuffer(trace);
  AddTracingStarted(trace, 2000);
  AddBundle(trace, 0, std::nullopt, {Switch(1500, 0, 10), Switch(2500, 10, 11)});
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), kSched), (Table{{"1500", "1000", "10"}, {"2500", "-1", "11"}}));
}

TEST(FtraceDropWindow, BeforeEveryCpuIsCompleteOnlyRawRowsAreKept) {
  // cpu 1's data is complete from 3000, cpu 0's from the start: until 3000 nothing is derived.
  proto::Writer trace;
  AddBundle(trace, 0, 0,
            {Switch(1000, 0, 20), Print(1100, 20, "B|20|half_seen"), Print(1200, 20, "E|20"),
             Switch(3500, 20, 21), Print(3600, 21, "B|21|whole"), Print(3700, 21, "E|21")});
  AddBundle(trace, 1, 3000, {Switch(3100, 0, 30)});
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  // The plain switch before 3000 leaves nothing, not even its ftrace_event row.
  EXPECT_EQ(Rows(t->db(), kSched), (Table{{"3100", "-1", "30"}, {"3500", "-1", "21"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT ts, name FROM ftrace_event ORDER BY ts"),
            (Table{{"1100", "print"},
                   {"1200", "print"},
                   {"3100", "sched_switch"},
                   {"3500", "sched_switch"},
                   {"3600", "print"},
                   {"3700", "print"}}));
  EXPECT_EQ(Rows(t->db(), "SELECT ts, dur, name FROM slice"), (Table{{"3600", "100", "whole"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT COUNT(*) FROM thread_state WHERE ts < 3000"), "0");
}

}  // namespace
}  // namespace tw
