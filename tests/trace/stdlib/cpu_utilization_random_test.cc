// linux.cpu.utilization's _cpu_freq_per_thread and cpu_cycles_per_thread_per_cpu read tables
// computed in C++ (query/cpu_freq_per_thread_tables.h). On a random trace (CPUs whose first
// frequency sample comes after the trace's start, a CPU with no samples, two cpufreq tracks on
// one CPU, a second machine, fractional frequencies, idle tasks, sched rows with dur 0 or -1,
// CPUs switching at the same ts)
// each must give exactly the rows of the SQL it replaced.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// The SQL the derived tables replaced (over linux.cpu.frequency's cpu_frequency_counters).
constexpr char kOldFreqPerThread[] = R"(
  CREATE PERFETTO TABLE _old_freq_intervals AS
  SELECT id AS counter_id, ts, dur, ucpu, cpu, freq FROM cpu_frequency_counters
  UNION ALL
  SELECT NULL AS counter_id, trace_start() AS ts, MIN(ts) - trace_start() AS dur, ucpu, cpu,
    NULL AS freq
  FROM cpu_frequency_counters
  GROUP BY ucpu
  HAVING MIN(ts) > trace_start();
  CREATE PERFETTO INDEX _old_freq_intervals_by_cpu ON _old_freq_intervals(ucpu, ts);
  CREATE PERFETTO VIEW _old_freq_per_thread AS
  WITH running AS (
    SELECT s.ts, s.dur, s.ucpu, s.cpu, s.utid
    FROM sched AS s
    WHERE s.dur > 0 AND s.utid NOT IN (SELECT utid FROM thread WHERE is_idle))
  SELECT
    ROW_NUMBER() OVER (ORDER BY r.ts, r.ucpu, f.ts) AS id,
    IFNULL(MAX(r.ts, f.ts), r.ts) AS ts,
    IFNULL(MIN(r.ts + r.dur, f.ts + f.dur) - MAX(r.ts, f.ts), r.dur) AS dur,
    r.ucpu, r.cpu, r.utid, f.freq, f.counter_id
  FROM running AS r
  LEFT JOIN _old_freq_intervals AS f
    ON f.ucpu = r.ucpu
    AND f.ts >= IFNULL(
      (SELECT MAX(f2.ts) FROM _old_freq_intervals AS f2
       WHERE f2.ucpu = r.ucpu AND f2.ts <= r.ts),
      r.ts)
    AND f.ts < r.ts + r.dur;)";

constexpr char kOldCyclesPerThreadPerCpu[] = R"(
  SELECT
    utid, ucpu, cpu,
    cast_int!(SUM(dur * freq / 1000)) AS millicycles,
    cast_int!(SUM(dur * freq / 1000) / 1e9) AS megacycles,
    SUM(dur) AS runtime,
    MIN(freq) AS min_freq,
    MAX(freq) AS max_freq,
    cast_int!(SUM(dur * freq / 1000) / (SUM(dur) / 1000)) AS avg_freq
  FROM _old_freq_per_thread
  GROUP BY utid, ucpu
  ORDER BY utid, ucpu)";

std::unique_ptr<TraceDatabase> BuildRandomTrace(TraceBuilder& b) {
  uint64_t x = 2024;
  auto next = [&](int64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((x >> 33) % static_cast<uint64_t>(n));
  };
  std::vector<uint32_t> threads;
  for (int i = 0; i < 3; ++i) {  // idle tasks
    threads.push_back(b.Thread(0, "swapper"));
    b.s.thread.is_idle.Set(threads.back(), 1);
  }
  for (int i = 0; i < 9; ++i) threads.push_back(b.Thread(100 + i, "t" + std::to_string(i)));
  constexpr int64_t kEnd = 1'000'000;
  // Each CPU's timeline tiled by sched rows (a few of dur 0, the last unfinished), inserted in
  // ts order across CPUs; boundaries on multiples of 100 ns, so CPUs often switch at the same
  // ts, and those rows are stored highest CPU first.
  std::vector<std::tuple<int64_t, uint32_t, int64_t, uint32_t>> runs;  // ts, cpu, dur, utid
  for (uint32_t cpu = 0; cpu < 4; ++cpu) {
    for (int64_t ts = 100 * next(3); ts < kEnd;) {
      int64_t dur = next(12) == 0 ? 0 : 100 * (1 + next(40));
      if (ts + dur >= kEnd) dur = -1;
      runs.emplace_back(ts, cpu, dur, threads[next(threads.size())]);
      ts += dur > 0 ? dur : dur == 0 ? 1 + next(50) : kEnd;
    }
  }
  std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b)
                                            : std::get<1>(a) > std::get<1>(b);
  });
  for (const auto& [ts, cpu, dur, utid] : runs) b.Sched(cpu, ts, dur, utid);
  // cpu 0-2 on the host, cpu 0 again on machine 1 (its own cpu row and track).
  const uint32_t other_machine_cpu = b.s.cpu.Insert({.cpu = 0u});
  b.s.cpu.machine_id.Set(other_machine_cpu, 1);
  auto samples = [&](uint32_t track, int64_t first, int64_t parity) {
    for (int64_t ts = first; ts < kEnd; ts += 2 * (1 + next(40'000)) + parity) {
      b.Counter(track, ts - (ts % 2) + parity, 300'000 + next(2'000'000) + next(10) / 10.0);
    }
  };
  samples(b.CpuCounterTrack(0, "cpufreq"), 0, 0);        // from the trace's start
  samples(b.CpuCounterTrack(1, "cpufreq"), 50'000, 0);   // first sample after it
  const uint32_t cpu2 = b.CpuCounterTrack(2, "cpufreq");
  samples(cpu2, 20'000, 0);
  samples(b.CpuCounterTrack(2, "cpufreq"), 30'001, 1);  // a second track on cpu 2
  samples(b.CpuCounterTrack(1, "cpuidle"), 0, 0);       // not a frequency
  const uint32_t remote = b.CpuCounterTrack(0, "cpufreq");
  b.s.track.machine_id.Set(remote, 1);
  samples(remote, 10'000, 0);
  // cpu 3 has no frequency samples at all.
  return b.Open(0, kEnd);
}

TEST(CpuUtilizationDerivedTables, FreqPerThreadMatchesTheJoin) {
  TraceBuilder b;
  auto db = BuildRandomTrace(b);
  Rows(*db, std::string("INCLUDE PERFETTO MODULE linux.cpu.utilization.general;") +
                kOldFreqPerThread);
  const Table old = Rows(*db, "SELECT * FROM _old_freq_per_thread ORDER BY id");
  ASSERT_GT(old.size(), 1500u);
  EXPECT_EQ(Rows(*db, "SELECT * FROM _cpu_freq_per_thread ORDER BY id"), old);
  // The pieces with no frequency are there (cpu 3, and cpu 1 before its first sample).
  EXPECT_GT(std::stoi(Scalar(*db, "SELECT COUNT(*) FROM _cpu_freq_per_thread "
                                  "WHERE freq IS NULL AND ucpu = 1")),
            0);
}

TEST(CpuUtilizationDerivedTables, CyclesPerThreadPerCpuMatchTheGroupBy) {
  TraceBuilder b;
  auto db = BuildRandomTrace(b);
  Rows(*db, std::string("INCLUDE PERFETTO MODULE linux.cpu.utilization.thread_cpu;") +
                kOldFreqPerThread);
  const Table old = Rows(*db, kOldCyclesPerThreadPerCpu);
  ASSERT_GT(old.size(), 30u);
  EXPECT_EQ(Rows(*db, "SELECT * FROM cpu_cycles_per_thread_per_cpu"), old);
  // cpu 3 ran threads without any frequency: NULL cycles, a runtime.
  EXPECT_EQ(Scalar(*db, "SELECT COUNT(*) > 0 FROM cpu_cycles_per_thread_per_cpu "
                        "WHERE ucpu = 3 AND millicycles IS NULL AND runtime > 0"),
            "1");
}

}  // namespace
}  // namespace tw::stdlib_testing
