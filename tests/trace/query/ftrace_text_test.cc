// to_ftrace(id): ftrace_event rows rendered as the kernel's text trace lines, through SQL over
// hand-built storage, and the gfp flag names on their own.

#include "libs/trace/query/ftrace_text.h"

#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using testing::AddIntArg;
using testing::AddStringArg;
using testing::Rows;
using testing::Scalar;

// Threads: utid 0 swapper (tid 0), utid 1 "Render-Thread" tid 1234 of pid 1200, utid 2 tid 77
// with no name and no process. CPUs 0..2.
class FtraceTextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TraceStorage& s = storage_;
    s.thread.Insert({.tid = 0});
    s.thread.name.Set(0, s.Intern("swapper/2"));
    const uint32_t p = s.process.Insert({.pid = 1200});
    const uint32_t t = s.thread.Insert({.tid = 1234});
    s.thread.name.Set(t, s.Intern("Render-Thread"));
    s.thread.upid.Set(t, p);
    s.thread.Insert({.tid = 77});
    for (uint32_t c = 0; c < 3; ++c) s.cpu.Insert({.cpu = c});
  }
  // An ftrace_event row at `ts` on `cpu` for `utid`, with arg set `set` (none when negative).
  void AddEvent(int64_t ts, std::string_view name, uint32_t utid, uint32_t cpu, int64_t set) {
    TraceStorage& s = storage_;
    const uint32_t row = s.ftrace_event.Insert(
        {.ts = ts, .name = s.Intern(name), .utid = utid, .common_flags = 0, .ucpu = cpu});
    if (set >= 0) s.ftrace_event.arg_set_id.Set(row, static_cast<uint32_t>(set));
  }
  std::vector<std::vector<std::string>> Lines() {
    auto db = testing::OpenOrDie(&storage_);
    return Rows(*db, "SELECT to_ftrace(id) FROM ftrace_event ORDER BY id");
  }
  TraceStorage storage_;
};

TEST_F(FtraceTextTest, PrefixPadsTaskAndTimeAsTheKernelDoes) {
  AddStringArg(storage_, 0, "buf", "hello\n");
  AddEvent(74289018336, "print", 1, 2, 0);
  AddEvent(5000, "print", 2, 0, -1);
  AddIntArg(storage_, 1, "cpu_id", 0, "uint");
  AddIntArg(storage_, 1, "state", 0, "uint");
  AddEvent(1999999999, "cpu_idle", 0, 1, 1);
  EXPECT_EQ(Lines(), (std::vector<std::vector<std::string>>{
                         {"   Render_Thread-1234  ( 1200) [002] .... 74.289018: "
                          "tracing_mark_write: hello"},
                         {"       <unknown>-77    (-----) [000] .... 0.000005: "
                          "tracing_mark_write:"},
                         {"          <idle>-0     (-----) [001] .... 1.999999: cpu_idle: "
                          "cpu_id=0 state=0"}}));
}

TEST_F(FtraceTextTest, GenericEventsPrintFieldsInOrderWithTheirSigns) {
  AddIntArg(storage_, 0, "call_site", -16, "uint");
  AddIntArg(storage_, 0, "delta", -5, "int");
  AddStringArg(storage_, 0, "comm", "foo");
  AddIntArg(storage_, 0, "gfp_flags", 0xc0 | 0x400000 | 0x2000000, "uint");
  AddEvent(100, "some_event", 1, 0, 0);
  EXPECT_EQ(Scalar(*testing::OpenOrDie(&storage_), "SELECT to_ftrace(0)"),
            "   Render_Thread-1234  ( 1200) [000] .... 0.000000: some_event: "
            "call_site=18446744073709551600 delta=-5 comm=foo gfp_flags=GFP_KERNEL");
}

TEST_F(FtraceTextTest, KnownEventsFollowTheirKernelFormats) {
  // sched_switch: the state as letters, the two tasks either side of "==>".
  AddStringArg(storage_, 0, "prev_comm", "a");
  AddIntArg(storage_, 0, "prev_pid", 10);
  AddIntArg(storage_, 0, "prev_prio", 120);
  AddIntArg(storage_, 0, "prev_state", 2);  // D in every kernel layout
  AddStringArg(storage_, 0, "next_comm", "b");
  AddIntArg(storage_, 0, "next_pid", 11);
  AddIntArg(storage_, 0, "next_prio", 100);
  AddEvent(1000, "sched_switch", 1, 0, 0);
  // sched_wakeup: target_cpu zero-padded.
  AddStringArg(storage_, 1, "comm", "b");
  AddIntArg(storage_, 1, "pid", 11);
  AddIntArg(storage_, 1, "prio", 100);
  AddIntArg(storage_, 1, "success", 1);
  AddIntArg(storage_, 1, "target_cpu", 2);
  AddEvent(2000, "sched_wakeup", 1, 0, 1);
  // softirq_entry: the vector and its name.
  AddIntArg(storage_, 2, "vec", 3, "uint");
  AddEvent(3000, "softirq_entry", 1, 0, 2);
  // cgroup_attach_task: cname shown as cgroup, in the kernel's order.
  AddIntArg(storage_, 3, "dst_root", 1);
  AddIntArg(storage_, 3, "dst_id", 2);
  AddIntArg(storage_, 3, "pid", 3);
  AddStringArg(storage_, 3, "comm", "foo");
  AddStringArg(storage_, 3, "cname", "bar");
  AddEvent(4000, "cgroup_attach_task", 1, 0, 3);
  // workqueue_execute_start: addresses in hex, a resolved function by name.
  AddIntArg(storage_, 4, "work", 0xffff0010, "uint");
  AddStringArg(storage_, 4, "function", "do_work");
  AddEvent(5000, "workqueue_execute_start", 1, 0, 4);
  const auto lines = Lines();
  ASSERT_EQ(lines.size(), 5u);
  const std::string prefix = "   Render_Thread-1234  ( 1200) [000] .... 0.00000";
  EXPECT_EQ(lines[0][0], prefix + "1: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 "
                                  "prev_state=D ==> next_comm=b next_pid=11 next_prio=100");
  EXPECT_EQ(lines[1][0],
            prefix + "2: sched_wakeup: comm=b pid=11 prio=100 target_cpu=002");
  EXPECT_EQ(lines[2][0], prefix + "3: softirq_entry: vec=3 [action=NET_RX]");
  EXPECT_EQ(lines[3][0], prefix + "4: cgroup_attach_task: dst_root=1 dst_id=2 cgroup=bar "
                                  "pid=3 comm=foo");
  EXPECT_EQ(lines[4][0],
            prefix + "5: workqueue_execute_start: work struct ffff0010: function do_work");
}

TEST_F(FtraceTextTest, BadIdsAreErrors) {
  auto db = testing::OpenOrDie(&storage_);
  EXPECT_FALSE(db->Execute("SELECT to_ftrace('x')").ok());
  EXPECT_FALSE(db->Execute("SELECT to_ftrace(5)").ok());
}

TEST(GfpFlagsTextTest, NamesCompositesThenBitsThenTheRest) {
  EXPECT_EQ(GfpFlagsText(0, std::nullopt), "GFP_NOWAIT");
  // 4.4 layout (the default): GFP_KERNEL is reclaim | IO | FS.
  EXPECT_EQ(GfpFlagsText(0x24000c0, std::nullopt), "GFP_KERNEL");
  EXPECT_EQ(GfpFlagsText(0x24000c0 | 0x8000, std::nullopt), "GFP_KERNEL|GFP_ZERO");
  EXPECT_EQ(GfpFlagsText(0x20 | 0x10000000, std::nullopt), "GFP_HIGH|0x10000000");
  // From 4.14 the reclaim bits moved: the same GFP_KERNEL is 0x14000c0.
  EXPECT_EQ(GfpFlagsText(0x14000c0, KernelVersion{5, 10}), "GFP_KERNEL");
  EXPECT_EQ(GfpFlagsText(0x1000000, KernelVersion{5, 10}), "GFP_NOWAIT");
}

}  // namespace
}  // namespace tw
