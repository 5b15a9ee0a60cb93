// What ftrace text lines become once loaded: scheduling, thread states, atrace slices and
// counters, thread/process identity, and the raw ftrace_event rows.
#include <gtest/gtest.h>

#include <string>

#include "tests/trace/systrace/systrace_test_util.h"

namespace tw::systrace_test {
namespace {

std::string Trace(std::string_view body) { return std::string(kHeader) + std::string(body); }

TEST(SystraceEvents, SchedSwitchBecomesSchedAndThreadState) {
  auto t = Load(Trace(
      "  <idle>-0     (-----) [000] d..2   1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 "
      "prev_prio=120 prev_state=R ==> next_comm=Signal Catcher next_pid=10 next_prio=120\n"
      "  Signal Catcher-10 (   10) [000] d..2   2.000000: sched_switch: prev_comm=Signal Catcher "
      "prev_pid=10 prev_prio=120 prev_state=D|K ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
      "  <idle>-0     (-----) [000] dNh3   2.500000: sched_waking: comm=Signal Catcher pid=10 "
      "prio=120 target_cpu=000\n"
      "  <idle>-0     (-----) [000] d..2   3.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 "
      "prev_prio=120 prev_state=R+ ==> next_comm=Signal Catcher next_pid=10 next_prio=120\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT ts, dur, cpu, tid, end_state FROM sched JOIN thread USING (utid) "
                 "ORDER BY ts"),
            "1000000000,1000000000,0,10,\"DK\"\n"
            "2000000000,1000000000,0,0,\"R+\"\n"
            "3000000000,-1,0,10,\"[NULL]\"\n");
  EXPECT_EQ(Rows(*t,
                 "SELECT ts, dur, state FROM thread_state JOIN thread USING (utid) "
                 "WHERE tid = 10 ORDER BY ts"),
            "1000000000,1000000000,\"Running\"\n"
            "2000000000,500000000,\"DK\"\n"
            "2500000000,500000000,\"R\"\n"
            "3000000000,-1,\"Running\"\n");
  // The name with a space survives; the tgid column made 10 a main thread.
  EXPECT_EQ(Rows(*t,
                 "SELECT tid, thread.name, pid FROM thread LEFT JOIN process USING (upid) "
                 "WHERE tid = 10"),
            "10,\"Signal Catcher\",10\n");
  // Each sched_switch is also a raw ftrace_event row (trace_processor's sched tracker keeps one
  // per switch, text or protobuf).
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM ftrace_event WHERE name = 'sched_switch'"), 3);
}

TEST(SystraceEvents, BlockedReason) {
  auto t = Load(
      Trace("  foo-269   (-----) [006] ....    20.258854: sched_switch: prev_comm=foo prev_pid=269 "
            "prev_prio=120 prev_state=D ==> next_comm=swapper/6 next_pid=0 next_prio=130\n"
            "  <idle>-0  (-----) [006] d..3    20.258855: sched_blocked_reason: pid=269 iowait=1 "
            "caller=worker_thread+0x534/0x820\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT ts, state, io_wait, blocked_function FROM thread_state "
                 "JOIN thread USING (utid) WHERE tid = 269 AND state = 'D'"),
            "20258854000,\"D\",1,\"worker_thread+0x534/0x820\"\n");
}

TEST(SystraceEvents, AtraceSlicesCountersAndAsync) {
  auto t = Load(
      Trace("  chrome-10830 ( 10830) [000] dNsa. 4213.033572: tracing_mark_write: B|10830|outer\n"
            "  chrome-10831 ( 10830) [001] ...1  4213.033580: tracing_mark_write: C|10830|queue|7\n"
            "  chrome-10830 ( 10830) [000] ...1  4213.033600: tracing_mark_write: B|10830|inner\n"
            "  chrome-10830 ( 10830) [000] ...1  4213.033610: tracing_mark_write: E|10830\n"
            "  chrome-10830 ( 10830) [000] ...1  4213.033620: tracing_mark_write: S|10830|load|42\n"
            "  chrome-10830 ( 10830) [000] ...1  4213.033672: tracing_mark_write: E\n"
            "  chrome-10831 ( 10830) [001] ...1  4213.033700: tracing_mark_write: F|10830|load|42\n"
            "  SurfaceFlinger-236 [000] 4213.040000: 0: B|124|onMessageReceived\n"
            "  SurfaceFlinger-236 [000] 4213.041000: 0: E\n"
            "  dummy-0000  [000] 0.0: 0: trace_event_clock_sync: parent_ts=0.0\n"
            "  chrome-10830 ( 10830) [000] ...1  4213.050000: tracing_mark_write: X|bogus\n"
            "  chrome-10830 ( 10830) [000] ...1  4213.050001: tracing_mark_write: B|notapid|x\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT ts, dur, name, depth FROM slice ORDER BY ts"),
            "4213033572000,100000,\"outer\",0\n"
            "4213033600000,10000,\"inner\",1\n"
            "4213033620000,80000,\"load\",0\n"
            "4213040000000,1000000,\"onMessageReceived\",0\n");
  EXPECT_EQ(Rows(*t, "SELECT ts, value FROM counter"), "4213033580000,7.000000\n");
  EXPECT_EQ(Rows(*t,
                 "SELECT tid, thread.name, pid FROM thread LEFT JOIN process USING (upid) "
                 "WHERE tid > 0 ORDER BY tid"),
            "124,\"[NULL]\",124\n236,\"SurfaceFlinger\",124\n10830,\"chrome\",10830\n10831,"
            "\"chrome\",10830\n");
  // Text traces keep no raw rows for markers (trace_processor's systrace line parser writes
  // none); the clock-sync marker is dropped.
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM ftrace_event WHERE name = 'print'"), 0);
  EXPECT_EQ(Int(*t, "SELECT start_ts FROM trace_bounds"), 4213033572000);
  EXPECT_EQ(Int(*t, "SELECT value FROM stats WHERE name = 'systrace_parse_failure'"), 1);
}

TEST(SystraceEvents, UnknownThreadNamesNeverOverwrite) {
  auto t = Load(
      Trace("          <idle>-0     [001] d..2  1234.000001: sched_switch: prev_comm=swapper/1 "
            "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=real_name next_pid=19999 "
            "next_prio=120\n"
            "           <...>-19999 [001] d..3  1234.000002: sched_wake_idle_without_ipi: cpu=2\n"
            "           <...>-5 [001] d..3  1234.000003: sched_wake_idle_without_ipi: cpu=2\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT tid, name, upid FROM thread WHERE tid > 0 ORDER BY tid"),
            "5,\"[NULL]\",\"[NULL]\"\n19999,\"real_name\",\"[NULL]\"\n");
}

TEST(SystraceEvents, LineTaskNamesTheThread) {
  auto t =
      Load(Trace("  RenderThread-20 (   10) [000] ...1  1.0: tracing_mark_write: B|10|draw\n"
                 "  RenderThread-20 (   10) [000] ...1  2.0: tracing_mark_write: E|10\n"
                 "  hwuiTask1-20 (   10) [000] ...1  3.0: tracing_mark_write: B|10|later\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT tid, name FROM thread WHERE tid = 20"), "20,\"hwuiTask1\"\n");
}

TEST(SystraceEvents, TaskLifecycle) {
  auto t = Load(Trace(
      "  zygote-100 ( 100) [000] ...1  1.0: task_newtask: pid=200 comm=zygote clone_flags=1200011 "
      "oom_score_adj=0\n"
      "  zygote-200 ( 200) [000] ...1  2.0: task_rename: pid=200 oldcomm=zygote "
      "newcomm=com.example oom_score_adj=0\n"
      "  com.example-200 ( 200) [000] ...1  2.5: task_newtask: pid=201 comm=com.example "
      "clone_flags=3d0f00 oom_score_adj=0\n"
      "  com.example-200 ( 200) [000] ...1  3.0: sched_process_exit: comm=com.example pid=200 "
      "prio=120\n"
      "  rcu-9 [000] ...1  4.0: sched_process_free: comm=com.example pid=200 prio=120\n"
      "  other-200 ( 300) [000] ...1  5.0: tracing_mark_write: B|300|reused\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT tid, thread.name, thread.start_ts, thread.end_ts, pid FROM thread "
                 "LEFT JOIN process USING (upid) WHERE tid >= 200 ORDER BY utid"),
            "200,\"com.example\",1000000000,4000000000,200\n"
            "201,\"com.example\",2500000000,\"[NULL]\",200\n"
            "200,\"other\",\"[NULL]\",\"[NULL]\",300\n"
            "300,\"[NULL]\",\"[NULL]\",\"[NULL]\",300\n");
  EXPECT_EQ(Rows(*t, "SELECT pid, name FROM process WHERE pid = 200"), "200,\"com.example\"\n");
  // Parsed for their meaning only: text lines other than sched_switch leave no raw rows.
  EXPECT_EQ(Int(*t,
                "SELECT COUNT(*) FROM ftrace_event WHERE name GLOB 'task_*' OR "
                "name GLOB 'sched_process_*'"),
            0);
}

TEST(SystraceEvents, CpuCountersSyscallsAndRawArgs) {
  auto t = Load(
      Trace("  <idle>-0 (-----) [002] d..2  1.0: cpu_frequency: state=1900800 cpu_id=2\n"
            "  <idle>-0 (-----) [002] d..2  1.5: cpu_idle: state=1 cpu_id=2\n"
            "  <idle>-0 (-----) [002] d..2  2.0: cpu_idle: state=4294967295 cpu_id=2\n"
            "  app-7 (    7) [001] ....  3.0: sys_enter: NR 63 (3, 7ffd, 10, 0, 0, 0)\n"
            "  app-7 (    7) [001] ....  3.5: sys_exit: NR 63 = 10\n"
            "  app-7 (    7) [001] ....  4.0: binder_return: cmd=0x7206 BR_TRANSACTION_COMPLETE\n"
            "  app-7 (    7) [001] ....  4.5: irq_handler_entry: irq=5 name=arch_timer\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT ts, value, cpu, t.name FROM counter "
                 "JOIN cpu_counter_track t ON counter.track_id = t.id ORDER BY ts"),
            "1000000000,1900800.000000,2,\"cpufreq\"\n"
            "1500000000,1.000000,2,\"cpuidle\"\n"
            "2000000000,4294967295.000000,2,\"cpuidle\"\n");
  // Without the machine's architecture the syscall keeps its number.
  EXPECT_EQ(Rows(*t, "SELECT ts, dur, name FROM slice"), "3000000000,500000000,\"sys_63\"\n");
  // Events without a meaning of their own are not kept as raw rows from text (as in
  // trace_processor, which stores generic rows only for protobuf ftrace).
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM ftrace_event"), 0);
}

TEST(SystraceEvents, WakeupDoesNotWake) {
  // Only sched_waking makes a thread runnable (trace_processor ignores sched_wakeup lines; with
  // protobuf it is only a raw row).
  auto t = Load(
      Trace("  a-5 [000] 1.0: sched_switch: prev_comm=a prev_pid=5 prev_prio=120 prev_state=S ==> "
            "next_comm=b next_pid=6 next_prio=120\n"
            "  b-6 [000] 2.0: sched_wakeup: comm=a pid=5 prio=120 success=1 target_cpu=001\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT ts, state FROM thread_state JOIN thread USING (utid) WHERE tid = 5 "
                 "ORDER BY ts"),
            "1000000000,\"S\"\n");
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM ftrace_event WHERE name = 'sched_wakeup'"), 0);
}

TEST(SystraceEvents, HtmlProcessDumpNamesProcesses) {
  const std::string html =
      "<!DOCTYPE html>\n<html>\n"
      "<script class=\"trace-data\" type=\"application/text\">\nPROCESS DUMP\n"
      "USER PID PPID VSZ RSS WCHAN PC S NAME COMM\n"
      "u0_a1 500 1 100 20 0 0 S com.example.app com.example.app --flag\n"
      "USER PID TID CMD\n"
      "u0_a1 500 501 RenderThread\n"
      "</script>\n"
      "<script class=\"trace-data\" type=\"application/text\">\n"
      "# tracer: nop\n#           TASK-PID    CPU#  ||||    TIMESTAMP  FUNCTION\n"
      "  <...>-501 [000] ...1  1.0: tracing_mark_write: B|500|frame\n"
      "  <...>-501 [000] ...1  2.0: tracing_mark_write: E|500\n"
      "  </script>\n</html>\n";
  auto t = Load(html);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->info().format, "systrace_html");
  EXPECT_EQ(Rows(*t, "SELECT pid, name FROM process WHERE pid = 500"), "500,\"com.example.app\"\n");
  EXPECT_EQ(Rows(*t,
                 "SELECT tid, thread.name, pid FROM thread JOIN process USING (upid) "
                 "WHERE tid = 501"),
            "501,\"RenderThread\",500\n");
  EXPECT_EQ(Rows(*t, "SELECT ts, dur, name FROM slice"), "1000000000,1000000000,\"frame\"\n");
}

}  // namespace
// The kernel prints cpu_frequency_limits as "min= max=" (newer kernels "min_freq= max_freq="):
// both spellings become the per-cpu Max / Min limit counters.
TEST(SystraceEvents, CpuFrequencyLimitsInBothFieldSpellings) {
  auto t = Load(Trace(
      "  kworker-41  (-----) [002] ....   5.000000: cpu_frequency_limits: min=300000 "
      "max=1900000 cpu_id=2\n"
      "  kworker-41  (-----) [003] ....   6.500000: cpu_frequency_limits: min_freq=700000 "
      "max_freq=2400000 cpu_id=3\n"));
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT c.ts, CAST(c.value AS INT), t.name FROM counter c "
                 "JOIN counter_track t ON c.track_id = t.id "
                 "WHERE t.name GLOB '* Freq Limit' ORDER BY c.ts, t.name"),
            "5000000000,1900000,\"Cpu 2 Max Freq Limit\"\n"
            "5000000000,300000,\"Cpu 2 Min Freq Limit\"\n"
            "6500000000,2400000,\"Cpu 3 Max Freq Limit\"\n"
            "6500000000,700000,\"Cpu 3 Min Freq Limit\"\n");
}

}  // namespace tw::systrace_test
