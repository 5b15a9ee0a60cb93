// linux.*: kernel threads, interrupts and CPU utilisation (system, process, thread) over
// hand-built traces whose answers are worked out in the comments.

#include <gtest/gtest.h>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

constexpr int64_t kMs = 1'000'000;

TEST(LinuxThreads, KthreaddAndItsChildren) {
  TraceBuilder b;
  const uint32_t init = b.Process(1, "init");
  const uint32_t kthreadd = b.Process(2, "kthreadd");
  const uint32_t kworker = b.Process(30, "kworker/0:1", kthreadd);
  const uint32_t app = b.Process(40, "com.example", init);
  b.Thread(2, "kthreadd", kthreadd);
  b.Thread(30, "kworker/0:1", kworker);
  b.Thread(40, "com.example", app);
  auto db = b.Open();
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.threads;"
                 "SELECT pid, tid, process_name, thread_name FROM linux_kernel_threads "
                 "ORDER BY tid"),
            (Table{{"2", "2", "kthreadd", "kthreadd"},
                   {"30", "30", "kworker/0:1", "kworker/0:1"}}));
}

TEST(LinuxIrqs, HardAndSoftInterrupts) {
  TraceBuilder b;
  const uint32_t irq = b.s.track.Insert({.name = b.s.Intern("Irq Cpu 0"),
                                         .type = b.s.Intern("cpu_irq"),
                                         .event_type = b.s.Intern("slice")});
  const uint32_t softirq = b.s.track.Insert({.name = b.s.Intern("SoftIrq Cpu 0"),
                                             .type = b.s.Intern("cpu_softirq"),
                                             .event_type = b.s.Intern("slice")});
  const uint32_t outer = b.Slice(irq, 10, 20, "IRQ (timer)");
  b.Slice(irq, 12, 3, "IRQ (ufshcd)", outer);
  b.Slice(softirq, 40, 5, "TIMER");
  b.Slice(b.GlobalTrack("other"), 50, 5, "not an irq");
  auto db = b.Open();
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.irqs;"
                 "SELECT ts, dur, name, parent_id, is_soft_irq FROM linux_irqs ORDER BY ts"),
            (Table{{"10", "20", "IRQ (timer)", "NULL", "0"},
                   {"12", "3", "IRQ (ufshcd)", "0", "0"},
                   {"40", "5", "TIMER", "NULL", "1"}}));
  EXPECT_EQ(Scalar(*db, "SELECT COUNT(*) FROM linux_hard_irqs"), "2");
  EXPECT_EQ(Scalar(*db, "SELECT name FROM linux_soft_irqs"), "TIMER");
}

// Two CPUs over [0, 1000 ms]. cpu0 runs at 1000 kHz, then 2000 kHz from 500 ms; cpu1 at
// 3000 kHz from 200 ms (unknown before). Thread 1 runs on cpu0 over [100, 600) ms, thread 2 on
// cpu1 over [100, 300) ms, both in one process; the idle task fills some gaps.
//   thread 1: 400 ms @ 1000 kHz + 100 ms @ 2000 kHz = 4e8 + 2e8 = 6e8 millicycles, 500 ms
//   thread 2: 100 ms @ unknown + 100 ms @ 3000 kHz = 3e8 millicycles, 200 ms
std::unique_ptr<TraceDatabase> UtilisationTrace(TraceBuilder& b) {
  const uint32_t swapper = b.Thread(0, "swapper");
  b.s.thread.is_idle.Set(swapper, 1);
  const uint32_t app = b.Process(10, "com.example");
  const uint32_t t1 = b.Thread(10, "main", app);
  const uint32_t t2 = b.Thread(11, "worker", app);
  const uint32_t f0 = b.CpuCounterTrack(0, "cpufreq");
  const uint32_t f1 = b.CpuCounterTrack(1, "cpufreq");
  b.Counter(f0, 0, 1000);
  b.Counter(f0, 500 * kMs, 2000);
  b.Counter(f1, 200 * kMs, 3000);
  b.Sched(0, 0, 100 * kMs, swapper);
  b.Sched(0, 100 * kMs, 500 * kMs, t1);
  b.Sched(0, 600 * kMs, 400 * kMs, swapper);
  b.Sched(1, 100 * kMs, 200 * kMs, t2);
  // BOOTTIME and MONOTONIC agree: the device never suspended.
  for (int64_t clock : {3, 6}) {
    b.s.clock_snapshot.Insert({.ts = 0, .clock_id = clock, .clock_value = 0, .snapshot_id = 0});
  }
  return b.Open(0, 1000 * kMs);
}

TEST(LinuxCpuUtilization, CyclesPerThreadPerCpuSplitByFrequency) {
  TraceBuilder b;
  auto db = UtilisationTrace(b);
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.utilization.thread_cpu;"
                 "SELECT utid, cpu, millicycles, megacycles, runtime, min_freq, max_freq, avg_freq "
                 "FROM cpu_cycles_per_thread_per_cpu ORDER BY utid"),
            (Table{{"1", "0", "600000000", "0", "500000000", "1000", "2000", "1200"},
                   // avg over all running time, the unknown-frequency part included
                   {"2", "1", "300000000", "0", "200000000", "3000", "3000", "1500"}}));
}

TEST(LinuxCpuUtilization, SystemProcessAndThreadTotals) {
  TraceBuilder b;
  auto db = UtilisationTrace(b);
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.utilization.system;"
                 "SELECT millicycles, runtime, min_freq, max_freq, avg_freq FROM cpu_cycles"),
            (Table{{"900000000", "700000000", "1000", "3000", "1285"}}));
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.utilization.process;"
                 "SELECT upid, millicycles, runtime FROM cpu_cycles_per_process"),
            (Table{{"0", "900000000", "700000000"}}));
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.utilization.thread;"
                 "SELECT utid, millicycles, runtime FROM cpu_cycles_per_thread ORDER BY utid"),
            (Table{{"1", "600000000", "500000000"}, {"2", "300000000", "200000000"}}));
}

TEST(LinuxCpuUtilization, PerPeriodCountsAStretchInThePeriodItStarts) {
  TraceBuilder b;
  auto db = UtilisationTrace(b);
  // Per second: 500 + 200 ms busy of 1 s on 2 CPUs.
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.utilization.system;"
                 "SELECT ts, utilization, unnormalized_utilization "
                 "FROM cpu_utilization_per_second"),
            (Table{{"0", "0.35", "0.7"}}));
  // Per 100 ms: both stretches start at 100 ms and count up to 200 ms only.
  EXPECT_EQ(Rows(*db,
                 "SELECT ts, utilization, unnormalized_utilization "
                 "FROM cpu_utilization_per_period(100000000)"),
            (Table{{"100000000", "1", "2"}}));
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.utilization.thread;"
                 "SELECT ts, unnormalized_utilization FROM cpu_thread_utilization_per_second(1)"),
            (Table{{"0", "0.5"}}));
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.utilization.process;"
                 "SELECT ts, unnormalized_utilization "
                 "FROM cpu_process_utilization_per_second(0)"),
            (Table{{"0", "0.7"}}));
}

TEST(LinuxCpuUtilization, WindowsClipTheRunningStretches) {
  TraceBuilder b;
  auto db = UtilisationTrace(b);
  // [400, 600) ms: thread 1 only, 100 ms at 1000 kHz and 100 ms at 2000 kHz.
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.utilization.system;"
                 "SELECT millicycles, runtime, awake_runtime, min_freq, max_freq, avg_freq "
                 "FROM cpu_cycles_in_interval(400000000, 200000000)"),
            (Table{{"300000000", "200000000", "200000000", "1000", "2000", "1500"}}));
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.utilization.thread;"
                 "SELECT utid, thread_name, awake_dur, awake_utilization, "
                 "awake_unnormalized_utilization "
                 "FROM cpu_thread_utilization_in_interval(0, 1000000000) ORDER BY utid"),
            (Table{{"1", "main", "500000000", "25", "50"},
                   {"2", "worker", "200000000", "10", "20"}}));
  EXPECT_EQ(Rows(*db,
                 "INCLUDE PERFETTO MODULE linux.cpu.utilization.process;"
                 "SELECT process_name, awake_dur, awake_unnormalized_utilization "
                 "FROM cpu_process_utilization_in_interval(0, 1000000000)"),
            (Table{{"com.example", "700000000", "70"}}));
}

TEST(LinuxCpuIdleTimeInState, ResidencySharesPerCpuAndAcrossCpus) {
  TraceBuilder b;
  b.s.cpu.Insert({.cpu = 0});
  b.s.cpu.Insert({.cpu = 1});
  // Cumulative microseconds in each state, sampled every 2 ms.
  const uint32_t cpu0_c1 = b.CounterTrack("cpuidle0.C1", "cpu_idle_state");
  const uint32_t cpu0_c4 = b.CounterTrack("cpuidle0.C4", "cpu_idle_state");
  const uint32_t cpu1_c4 = b.CounterTrack("cpuidle1.C4", "cpu_idle_state");
  b.s.track.cpu.Set(cpu0_c1, 0);
  b.s.track.cpu.Set(cpu0_c4, 0);
  b.s.track.cpu.Set(cpu1_c4, 1);
  for (auto [track, first, second] : {std::tuple{cpu0_c1, 50.0, 550.0},
                                      std::tuple{cpu0_c4, 10.0, 1010.0},
                                      std::tuple{cpu1_c4, 0.0, 1500.0}}) {
    b.Counter(track, 1'000'000, first);
    b.Counter(track, 3'000'000, second);
  }
  auto db = stdlib_testing::OpenOrDie(b.storage.get());
  // cpu 0: C1 500 us and C4 1000 us of 2000 us, so C0 500; cpu 1: C4 1500, C0 500.
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE linux.cpu.idle_time_in_state;"
                      "SELECT ts, state, cpu, idle_percentage, total_residency, time_slice"
                      " FROM linux_per_cpu_idle_time_in_state_counters"),
            (Table{{"3000000", "C1", "0", "25", "500", "2000"},
                   {"3000000", "C4", "0", "50", "1000", "2000"},
                   {"3000000", "C4", "1", "75", "1500", "2000"},
                   {"3000000", "C0", "0", "25", "500", "2000"},
                   {"3000000", "C0", "1", "25", "500", "2000"}}));
  EXPECT_EQ(Rows(*db, "SELECT ts, state, idle_percentage, total_residency, time_slice"
                      " FROM linux_cpu_idle_time_in_state_counters"),
            (Table{{"3000000", "C0", "25", "500", "2000"},
                   {"3000000", "C1", "12.5", "250", "2000"},
                   {"3000000", "C4", "62.5", "1250", "2000"}}));
}

}  // namespace
}  // namespace tw::stdlib_testing
