// Kernel function fields of ftrace events (sched_blocked_reason's caller, workqueue functions,
// ...) are names when the trace interned its kernel symbols; each lookup of a symbol it did not
// intern counts in interned_data_tokenizer_errors, as trace_processor counts them.

#include "tests/trace/system_probes/test_packets.h"

namespace tw::testing {
namespace {

namespace tp = pf::trace_packet;

constexpr uint32_t kBlockedReason = 18;    // FtraceEvent.sched_blocked_reason
constexpr uint32_t kWorkqueueQueue = 59;   // FtraceEvent.workqueue_queue_work
constexpr uint32_t kWorkqueueStart = 58;   // FtraceEvent.workqueue_execute_start

proto::Writer FtraceEvent(int64_t ts, uint32_t id, const proto::Writer& payload) {
  proto::Writer e;
  e.Varint(pf::ftrace_event::kTimestamp, static_cast<uint64_t>(ts));
  e.Varint(pf::ftrace_event::kPid, 10);
  e.Message(id, payload);
  return e;
}

proto::Writer Bundle(const std::vector<proto::Writer>& events) {
  proto::Writer b;
  b.Varint(pf::ftrace_event_bundle::kCpu, 0);
  for (const proto::Writer& e : events) b.Message(pf::ftrace_event_bundle::kEvent, e);
  return b;
}

proto::Writer BlockedReason(std::optional<uint64_t> caller) {
  proto::Writer r;
  r.Varint(1, 10);  // pid
  if (caller) r.Varint(2, *caller);
  r.Varint(3, 1);  // io_wait
  return r;
}

int64_t Errors(LoadedTrace& t) {
  const Grid g = Rows(t, "SELECT value FROM stats WHERE name = 'interned_data_tokenizer_errors'");
  return g.size() == 1 ? std::stoll(g[0][0]) : -1;
}

TEST(FtraceKernelSymbolsTest, MissingSymbolsAreCountedPerLookup) {
  proto::Writer queue;
  queue.Varint(2, 0xabc);  // function
  proto::Writer start;      // no function field: its parser still looks up symbol 0
  auto t = TraceBuilder()
               .Add(tp::kFtraceEvents,
                    Bundle({FtraceEvent(100, kBlockedReason, BlockedReason(0x1234)),
                            FtraceEvent(110, kBlockedReason, BlockedReason(std::nullopt)),
                            FtraceEvent(120, kWorkqueueQueue, queue),
                            FtraceEvent(130, kWorkqueueStart, start)}))
               .Load();
  ASSERT_TRUE(t);
  // blocked_reason with a caller: args + its parser (2); without: its parser only (1);
  // workqueue_queue_work: args only (1); workqueue_execute_start without a function: 1.
  EXPECT_EQ(Errors(*t), 5);
}

TEST(FtraceKernelSymbolsTest, InternedSymbolsAreNotErrors) {
  proto::Writer symbol;
  symbol.Varint(pf::interned_string::kIid, 0x1234);
  symbol.String(pf::interned_string::kStr, "io_schedule");
  proto::Writer interned;
  interned.Message(pf::interned_data::kKernelSymbols, symbol);
  proto::Writer packet;
  packet.Varint(tp::kTrustedPacketSequenceId, 1);
  packet.Bool(tp::kIncrementalStateCleared, true);
  packet.Message(tp::kInternedData, interned);
  packet.Message(tp::kFtraceEvents,
                 Bundle({FtraceEvent(100, kBlockedReason, BlockedReason(0x1234))}));
  auto t = TraceBuilder().AddRaw(packet).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Errors(*t), 0);
}

}  // namespace
}  // namespace tw::testing
