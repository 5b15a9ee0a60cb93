// Modules over real Perfetto traces written with proto::Writer and loaded end to end.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

proto::Writer Print(int64_t ts, int64_t pid, std::string_view buf) {
  proto::Writer print;
  print.String(pf::print_ftrace_event::kBuf, buf);
  proto::Writer ev;
  ev.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(ts));
  ev.Varint(pf::ftrace_event::kPid, static_cast<uint64_t>(pid));
  ev.Message(pf::ftrace_event::kPrint, print);
  return ev;
}

proto::Writer Switch(int64_t ts, std::string_view prev_comm, int64_t prev_pid, int64_t prev_state,
                     std::string_view next_comm, int64_t next_pid) {
  proto::Writer sw;
  sw.String(pf::sched_switch_ftrace_event::kPrevComm, prev_comm);
  sw.Int(pf::sched_switch_ftrace_event::kPrevPid, prev_pid);
  sw.Int(pf::sched_switch_ftrace_event::kPrevState, prev_state);
  sw.String(pf::sched_switch_ftrace_event::kNextComm, next_comm);
  sw.Int(pf::sched_switch_ftrace_event::kNextPid, next_pid);
  proto::Writer ev;
  ev.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(ts));
  ev.Varint(pf::ftrace_event::kPid, static_cast<uint64_t>(prev_pid));
  ev.Message(pf::ftrace_event::kSchedSwitch, sw);
  return ev;
}

void AddBundle(proto::Writer& trace, uint32_t cpu, const std::vector<proto::Writer>& events) {
  proto::Writer bundle;
  bundle.Varint(pf::ftrace_event_bundle::kCpu, cpu);
  for (const proto::Writer& ev : events) bundle.Message(pf::ftrace_event_bundle::kEvent, ev);
  proto::Writer packet;
  packet.Message(pf::trace_packet::kFtraceEvents, bundle);
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, 1);
  trace.Message(pf::trace::kPacket, packet);
}

// cpu0: swapper -> pid 10 at 500, back to swapper at 1500; atrace A [1000,1300) > B [1100,1200)
// on pid 10. cpu1: swapper -> pid 11 at 600, back at 800.
std::unique_ptr<LoadedTrace> LoadSmallTrace() {
  proto::Writer trace;
  AddBundle(trace, 0,
            {Switch(500, "swapper/0", 0, 0, "app", 10), Print(1000, 10, "B|10|A"),
             Print(1100, 10, "B|10|B"), Print(1200, 10, "E|10"), Print(1300, 10, "E|10"),
             Switch(1500, "app", 10, 1, "swapper/0", 0)});
  AddBundle(trace, 1,
            {Switch(600, "swapper/1", 0, 0, "other", 11),
             Switch(800, "other", 11, 1, "swapper/1", 0)});
  auto t = LoadTraceBytes(trace.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(LoadedTraceModules, StackIdsOfAtraceSlices) {
  auto t = LoadSmallTrace();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE slices.stack;
                             SELECT name, depth, stack_id, parent_stack_id
                             FROM slice_with_stack_id ORDER BY depth)"),
            (Table{{"A", "0", "1905114530773834795", "0"},
                   {"B", "1", "6901956697539716495", "1905114530773834795"}}));
}

TEST(LoadedTraceModules, ThreadSliceAndSelfDur) {
  auto t = LoadSmallTrace();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE slices.with_context;
                             INCLUDE PERFETTO MODULE slices.self_dur;
                             SELECT ts.name, ts.tid, ts.pid, sd.self_dur
                             FROM thread_slice AS ts JOIN slice_self_dur AS sd USING (id)
                             ORDER BY ts.ts)"),
            (Table{{"A", "10", "10", "200"}, {"B", "10", "10", "100"}}));
}

TEST(LoadedTraceModules, ActiveCpuCount) {
  auto t = LoadSmallTrace();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(), R"(INCLUDE PERFETTO MODULE sched.thread_level_parallelism;
                             SELECT ts, active_cpu_count FROM sched_active_cpu_count)"),
            (Table{{"500", "1"}, {"600", "2"}, {"800", "1"}, {"1500", "0"}}));
}

}  // namespace
}  // namespace tw::stdlib_testing
