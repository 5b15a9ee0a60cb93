// funcgraph_entry / funcgraph_exit (the kernel's function graph tracer): each traced call
// becomes a slice on the thread that made it, nested by call order; the idle task (pid 0),
// which runs on every cpu, keeps one call stack per cpu.

#include <gtest/gtest.h>

#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

constexpr uint32_t kFuncgraphEntry = 437;  // FtraceEvent.funcgraph_entry
constexpr uint32_t kFuncgraphExit = 438;   // FtraceEvent.funcgraph_exit

void AddEntry(proto::Writer& trace, uint32_t cpu, int64_t ts, int32_t pid, int depth,
              uint64_t func) {
  proto::Writer e;
  e.Varint(1, static_cast<uint64_t>(depth));  // depth
  e.Varint(2, func);                          // func (kernel address)
  importer_testing::AddFtraceEvent(trace, cpu, ts, pid, kFuncgraphEntry, e);
}

void AddExit(proto::Writer& trace, uint32_t cpu, int64_t ts, int32_t pid, int depth,
             uint64_t func) {
  proto::Writer e;
  e.Varint(2, static_cast<uint64_t>(depth));  // depth
  e.Varint(3, func);                          // func
  importer_testing::AddFtraceEvent(trace, cpu, ts, pid, kFuncgraphExit, e);
}

TEST(FtraceFuncgraph, CallsNestOnTheCallingThread) {
  proto::Writer trace;
  AddEntry(trace, 1, 1000, 42, 0, 0xffff0010);
  AddEntry(trace, 1, 1200, 42, 1, 0xffff0020);
  AddExit(trace, 1, 1500, 42, 1, 0xffff0020);
  AddEntry(trace, 1, 1600, 42, 1, 0xffff0030);
  AddExit(trace, 1, 1700, 42, 1, 0xffff0030);
  AddExit(trace, 1, 2000, 42, 0, 0xffff0010);
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  // Without interned kernel symbols a function is named by its address.
  EXPECT_EQ(Rows(t->db(),
                 "SELECT s.ts, s.dur, s.depth, s.name, th.tid FROM slice s "
                 "JOIN thread_track tt ON s.track_id = tt.id JOIN thread th USING (utid) "
                 "ORDER BY s.ts"),
            (Table{{"1000", "1000", "0", "0xffff0010", "42"},
                   {"1200", "300", "1", "0xffff0020", "42"},
                   {"1600", "100", "1", "0xffff0030", "42"}}));
}

TEST(FtraceFuncgraph, IdleTaskCallsStayApartPerCpu) {
  proto::Writer trace;
  // Both cpus run pid 0 at once; their calls interleave in time but must not nest.
  AddEntry(trace, 0, 100, 0, 0, 0xa0);
  AddEntry(trace, 3, 150, 0, 0, 0xb0);
  AddExit(trace, 0, 200, 0, 0, 0xa0);
  AddExit(trace, 3, 400, 0, 0, 0xb0);
  auto t = importer_testing::LoadOrFail(trace);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Rows(t->db(),
                 "SELECT s.ts, s.dur, s.depth, s.name, ct.cpu FROM slice s "
                 "JOIN cpu_track ct ON s.track_id = ct.id ORDER BY s.ts"),
            (Table{{"100", "100", "0", "0xa0", "0"}, {"150", "250", "0", "0xb0", "3"}}));
}

}  // namespace
}  // namespace tw
