// Scheduling events of two cpus at the same timestamp are ordered as trace_processor's sorter
// orders them, which decides which thread is seen first and so which utid it gets: the cpu
// whose stream is being drained when the tie comes up goes first, not the bundle read first.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

struct Switch {
  int64_t ts;
  int32_t prev_pid;
  int32_t next_pid;
};

void AddBundle(proto::Writer& trace, uint32_t cpu, const std::vector<Switch>& switches) {
  namespace ss = pf::sched_switch_ftrace_event;
  proto::Writer bundle;
  bundle.Varint(pf::ftrace_event_bundle::kCpu, cpu);
  for (const Switch& s : switches) {
    proto::Writer body;
    body.String(ss::kPrevComm, "t" + std::to_string(s.prev_pid));
    body.Varint(ss::kPrevPid, static_cast<uint64_t>(s.prev_pid));
    body.Varint(ss::kPrevPrio, 120);
    body.Varint(ss::kPrevState, 1);
    body.String(ss::kNextComm, "t" + std::to_string(s.next_pid));
    body.Varint(ss::kNextPid, static_cast<uint64_t>(s.next_pid));
    body.Varint(ss::kNextPrio, 120);
    proto::Writer event;
    event.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(s.ts));
    event.Varint(pf::ftrace_event::kPid, static_cast<uint64_t>(s.prev_pid));
    event.Message(pf::ftrace_event::kSchedSwitch, body);
    bundle.Message(pf::ftrace_event_bundle::kEvent, event);
  }
  proto::Writer packet;
  packet.Message(pf::trace_packet::kFtraceEvents, bundle);
  trace.Message(pf::trace::kPacket, packet);
}

TEST(FtraceEqualTimestamps, TieGoesToTheCpuBeingDrained) {
  proto::Writer trace;
  // cpu 1's bundle comes first in the file, but at t=30 cpu 3 is the cpu being drained: its
  // switch at 20 started a run that continues while its events are <= cpu 1's next (30).
  AddBundle(trace, 1, {{10, 11, 100}, {30, 100, 300}});
  AddBundle(trace, 3, {{20, 33, 200}, {30, 200, 301}});
  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT tid FROM thread WHERE tid IN (300, 301) ORDER BY utid"),
            (Table{{"301"}, {"300"}}));
  EXPECT_EQ(Rows((*t)->db(), "SELECT ts, cpu, tid FROM sched JOIN thread USING (utid) "
                             "WHERE ts = 30 ORDER BY sched.id"),
            (Table{{"30", "3", "301"}, {"30", "1", "300"}}));
}

// With no run in progress the cpu whose stream was created first wins the tie: both cpus'
// streams start at t=50, and the lower cpu's stream was made first (with the higher cpu's).
TEST(FtraceEqualTimestamps, TieAtTheStartOfARunGoesToTheFirstCreatedStream) {
  proto::Writer trace;
  AddBundle(trace, 2, {{50, 22, 202}});
  AddBundle(trace, 0, {{50, 20, 200}});
  auto t = LoadTraceBytes(trace.Take());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Rows((*t)->db(), "SELECT tid FROM thread WHERE tid IN (200, 202) ORDER BY utid"),
            (Table{{"200"}, {"202"}}));
}

}  // namespace
}  // namespace tw
