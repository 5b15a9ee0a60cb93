// Modules that break time down: sched.time_in_state, sched.with_context, slices.cpu_time,
// slices.time_in_state, linux.cpu.idle_stats, linux.memory.*, android.screen_state and
// android.battery.charging_states, over hand-built traces.

#include <gtest/gtest.h>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// One app thread over [0, 1000): Running [0, 200), R [200, 300), S [300, 700), D [700, 800)
// blocked in "do_sys_open" on I/O, Running [800, 1000). It runs on cpu0 at the same times. A
// slice "work" covers [100, 750).
struct StatesTrace {
  TraceBuilder b;
  uint32_t utid = 0;
  std::unique_ptr<TraceDatabase> db;
  StatesTrace() {
    b.Thread(0, "swapper");
    const uint32_t app = b.Process(10, "com.example");
    utid = b.Thread(10, "main", app);
    b.State(utid, 0, 200, "Running");
    b.State(utid, 200, 100, "R");
    b.State(utid, 300, 400, "S");
    const uint32_t d = b.State(utid, 700, 100, "D");
    b.s.thread_state.io_wait.Set(d, 1);
    b.s.thread_state.blocked_function.Set(d, b.s.Intern("do_sys_open"));
    b.State(utid, 800, 200, "Running");
    b.Sched(0, 0, 200, utid);
    b.Sched(0, 800, 200, utid);
    b.Slice(b.ThreadTrack(utid), 100, 650, "work");
    db = b.Open(0, 1000);
  }
};

TEST(SchedTimeInState, ShareOfEachState) {
  StatesTrace t;
  EXPECT_EQ(Rows(*t.db,
                 "INCLUDE PERFETTO MODULE sched.time_in_state;"
                 "SELECT state, total_runtime, time_in_state, percentage_in_state "
                 "FROM sched_time_in_state_for_thread ORDER BY state"),
            (Table{{"D", "1000", "100", "10"},
                   {"R", "1000", "100", "10"},
                   {"Running", "1000", "400", "40"},
                   {"S", "1000", "400", "40"}}));
  EXPECT_EQ(Rows(*t.db,
                 "SELECT running, runnable, runnable_preempted, sleeping, uninterruptible_sleep, "
                 "other FROM sched_percentage_of_time_in_state"),
            (Table{{"40", "10", "NULL", "40", "10", "NULL"}}));
}

TEST(SchedTimeInState, WindowsClipStates) {
  StatesTrace t;
  EXPECT_EQ(Rows(*t.db,
                 "INCLUDE PERFETTO MODULE sched.time_in_state;"
                 "SELECT state, io_wait, blocked_function, dur "
                 "FROM sched_time_in_state_for_thread_in_interval(150, 630, 1)"),
            (Table{{"S", "NULL", "NULL", "400"},
                   {"R", "NULL", "NULL", "100"},
                   {"D", "1", "do_sys_open", "80"},
                   {"Running", "NULL", "NULL", "50"}}));
  EXPECT_EQ(Rows(*t.db,
                 "SELECT end_state, dur FROM sched_time_in_state_for_cpu_in_interval(0, 100, 800)"),
            (Table{{"S", "200"}}));
}

TEST(SchedWithContext, SchedRowsCarryThreadAndProcess) {
  StatesTrace t;
  EXPECT_EQ(Rows(*t.db,
                 "INCLUDE PERFETTO MODULE sched.with_context;"
                 "SELECT ts, dur, thread_name, process_name, cpu FROM sched_with_thread_process "
                 "ORDER BY ts"),
            (Table{{"0", "200", "main", "com.example", "0"},
                   {"800", "200", "main", "com.example", "0"}}));
}

TEST(SlicesTimeBreakdown, CpuTimeAndStatesDuringASlice) {
  StatesTrace t;
  // "work" [100, 750): ran [100, 200) only.
  EXPECT_EQ(Rows(*t.db,
                 "INCLUDE PERFETTO MODULE slices.cpu_time;"
                 "SELECT name, thread_name, process_name, cpu_time FROM thread_slice_cpu_time"),
            (Table{{"work", "main", "com.example", "100"}}));
  EXPECT_EQ(Rows(*t.db,
                 "INCLUDE PERFETTO MODULE slices.time_in_state;"
                 "SELECT name, state, io_wait, blocked_function, dur "
                 "FROM thread_slice_time_in_state ORDER BY dur DESC, state"),
            (Table{{"work", "S", "NULL", "NULL", "400"},
                   {"work", "R", "NULL", "NULL", "100"},
                   {"work", "Running", "NULL", "NULL", "100"},
                   {"work", "D", "1", "do_sys_open", "50"}}));
}

TEST(LinuxCpuIdleStats, EntriesAndShares) {
  TraceBuilder b;
  const uint32_t idle = b.CpuCounterTrack(0, "cpuidle");
  b.Counter(idle, 0, 0);             // state 0 (numbered 1) for 100
  b.Counter(idle, 100, 4294967295);  // active for 100
  b.Counter(idle, 200, 1);           // state 1 (numbered 2) for 300
  b.Counter(idle, 500, 0);           // state 0 for 500, to the end
  b.Sched(0, 0, 1, b.Thread(0, "swapper"));
  auto db = b.Open(0, 1000);
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.idle_stats;"
                 "SELECT cpu, state, count, dur, avg_dur, idle_percent FROM cpu_idle_stats"),
            (Table{{"0", "1", "2", "600", "300", "60"}, {"0", "2", "1", "300", "300", "30"}}));
}

TEST(LinuxMemory, RssAndSwapJoinedOverTime) {
  TraceBuilder b;
  const uint32_t app = b.Process(10, "com.example");
  const uint32_t anon = b.ProcessCounterTrack(app, "mem.rss.anon");
  const uint32_t file = b.ProcessCounterTrack(app, "mem.rss.file");
  const uint32_t swap = b.ProcessCounterTrack(app, "mem.swap");
  b.Counter(anon, 100, 1000);
  b.Counter(file, 100, 500);
  b.Counter(anon, 200, 3000);
  b.Counter(swap, 300, 50);
  b.Counter(anon, 400, 2000);
  auto db = b.Open(0, 1000);
  // The last stretch runs to just after the process's end (here the trace's end).
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.memory.process;"
                 "SELECT ts, dur, anon_rss, file_rss, shmem_rss, rss, swap, rss_and_swap "
                 "FROM memory_rss_and_swap_per_process ORDER BY ts"),
            (Table{{"100", "100", "1000", "500", "NULL", "1500", "NULL", "1500"},
                   {"200", "100", "3000", "500", "NULL", "3500", "NULL", "3500"},
                   {"300", "100", "3000", "500", "NULL", "3500", "50", "3550"},
                   {"400", "601", "2000", "500", "NULL", "2500", "50", "2550"}}));
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.memory.high_watermark;"
                 "SELECT ts, dur, process_name, rss_high_watermark "
                 "FROM memory_rss_high_watermark_per_process ORDER BY ts"),
            (Table{{"100", "100", "com.example", "1500"}, {"200", "801", "com.example", "3500"}}));
}

TEST(AndroidScreenAndCharging, StatesCoverTheWholeTrace) {
  TraceBuilder b;
  const uint32_t screen = b.CounterTrack("ScreenState");
  b.Counter(screen, 100, 2);
  b.Counter(screen, 600, 1);
  const uint32_t battery = b.CounterTrack("BatteryStatus");
  b.Counter(battery, 0, 2);
  b.Counter(battery, 500, 5);
  auto db = b.Open(0, 1000);
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE android.screen_state;"
                 "SELECT id, ts, dur, simple_screen_state, screen_state FROM android_screen_state"),
            (Table{{"0", "0", "100", "unknown", "Unknown"},
                   {"1", "100", "500", "on", "Screen on"},
                   {"2", "600", "400", "off", "Screen off"}}));
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE android.battery.charging_states;"
                 "SELECT ts, dur, short_charging_state, charging_state FROM android_charging_states"),
            (Table{{"0", "500", "charging", "Charging"}, {"500", "500", "full", "Full"}}));
}

}  // namespace
}  // namespace tw::stdlib_testing
