// counters.intervals, linux.cpu.frequency, linux.cpu.idle and intervals.overlap.

#include <gtest/gtest.h>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// Tracks: 0 cpufreq cpu0, 1 cpufreq cpu1, 2 cpuidle cpu0. Trace ends at 1000.
// Counters: 0 @100 t0 300000; 1 @100 t1 500000; 2 @150 t2 4294967295; 3 @200 t0 1800000;
//           4 @250 t2 1; 5 @300 t0 1800000.
std::unique_ptr<TraceDatabase> OpenCounterTrace(TraceBuilder& b) {
  b.s.cpu.Insert({.cpu = 0});
  b.s.cpu.Insert({.cpu = 1});
  const uint32_t f0 = b.CpuCounterTrack(0, "cpufreq");
  const uint32_t f1 = b.CpuCounterTrack(1, "cpufreq");
  const uint32_t i0 = b.CpuCounterTrack(0, "cpuidle");
  b.s.counter.Insert({.ts = 100, .track_id = f0, .value = 300000});
  b.s.counter.Insert({.ts = 100, .track_id = f1, .value = 500000});
  b.s.counter.Insert({.ts = 150, .track_id = i0, .value = 4294967295.0});
  b.s.counter.Insert({.ts = 200, .track_id = f0, .value = 1800000});
  b.s.counter.Insert({.ts = 250, .track_id = i0, .value = 1});
  b.s.counter.Insert({.ts = 300, .track_id = f0, .value = 1800000});
  return b.Open(0, 1000);
}

TEST(CountersIntervals, LeadingIntervals) {
  TraceBuilder b;
  auto db = OpenCounterTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE counters.intervals;
                         SELECT id, ts, dur, track_id, value, next_value, delta_value
                         FROM counter_leading_intervals!(
                           (SELECT * FROM counter WHERE track_id IN (0, 1))))"),
            (Table{{"0", "100", "100", "0", "300000", "1.8e+06", "NULL"},
                   {"3", "200", "100", "0", "1.8e+06", "1.8e+06", "1.5e+06"},
                   {"5", "300", "700", "0", "1.8e+06", "NULL", "0"},
                   {"1", "100", "900", "1", "500000", "NULL", "NULL"}}));
}

TEST(LinuxCpuFrequency, FrequencyCounters) {
  TraceBuilder b;
  auto db = OpenCounterTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE linux.cpu.frequency;
                         SELECT id, track_id, ts, dur, freq, ucpu, cpu
                         FROM cpu_frequency_counters ORDER BY cpu, ts)"),
            (Table{{"0", "0", "100", "100", "300000", "0", "0"},
                   {"3", "0", "200", "100", "1800000", "0", "0"},
                   {"5", "0", "300", "700", "1800000", "0", "0"},
                   {"1", "1", "100", "900", "500000", "1", "1"}}));
}

TEST(LinuxCpuIdle, IdleCountersMapActiveToMinusOne) {
  TraceBuilder b;
  auto db = OpenCounterTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE linux.cpu.idle;
                         SELECT id, ts, dur, idle, cpu FROM cpu_idle_counters ORDER BY ts)"),
            (Table{{"2", "150", "100", "-1", "0"}, {"4", "250", "750", "1", "0"}}));
}

TEST(IntervalsOverlap, CountByGroup) {
  TraceBuilder b;
  auto db = b.Open();
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE intervals.overlap;
                         WITH iv(ts, dur, grp) AS (
                           VALUES (0, 10, 'a'), (5, 10, 'a'), (20, 5, 'a'), (0, 3, 'b'))
                         SELECT ts, value, group_name
                         FROM intervals_overlap_count_by_group!(iv, ts, dur, grp)
                         ORDER BY group_name, ts)"),
            (Table{{"0", "1", "a"}, {"5", "2", "a"}, {"10", "1", "a"}, {"15", "0", "a"},
                   {"20", "1", "a"}, {"25", "0", "a"}, {"0", "1", "b"}, {"3", "0", "b"}}));
}

TEST(IntervalsOverlap, CountKeepsUnfinishedIntervalsOpen) {
  TraceBuilder b;
  auto db = b.Open();
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE intervals.overlap;
                         SELECT * FROM intervals_overlap_count!(
                           (SELECT 0 AS ts, 10 AS dur UNION ALL SELECT 5, -1
                            UNION ALL SELECT 10, 5), ts, dur))"),
            (Table{{"0", "1"}, {"5", "2"}, {"10", "2"}, {"15", "1"}}));
}

TEST(IntervalsOverlap, MergeOverlapping) {
  TraceBuilder b;
  auto db = b.Open();
  const char* kIntervals =
      "WITH iv(ts, dur) AS (VALUES (0, 10), (5, 10), (20, 5), (26, 4)) ";
  EXPECT_EQ(Rows(*db, std::string("INCLUDE PERFETTO MODULE intervals.overlap; ") + kIntervals +
                          "SELECT ts, dur FROM interval_merge_overlapping!(iv, 0)"),
            (Table{{"0", "15"}, {"20", "5"}, {"26", "4"}}));
  EXPECT_EQ(Rows(*db, std::string(kIntervals) +
                          "SELECT ts, dur FROM interval_merge_overlapping!(iv, 1)"),
            (Table{{"0", "15"}, {"20", "10"}}));
  EXPECT_EQ(Scalar(*db, std::string(kIntervals) + "SELECT _intervals_overlap_in_table!(iv)"), "1");
  EXPECT_EQ(Scalar(*db, "WITH iv(ts, dur) AS (VALUES (0, 5), (5, 5)) "
                        "SELECT _intervals_overlap_in_table!(iv)"),
            "0");
}

TEST(IntervalsOverlap, MergeOverlappingPartitioned) {
  TraceBuilder b;
  auto db = b.Open();
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE intervals.overlap;
                         WITH iv(ts, dur, cpu, kind) AS (
                           VALUES (0, 10, 0, 'x'), (5, 10, 0, 'x'), (0, 3, 1, 'x'),
                                  (2, 3, 1, 'x'), (20, 5, 0, 'x'), (0, 100, 0, 'y'))
                         SELECT ts, dur, cpu, kind
                         FROM interval_merge_overlapping_partitioned!(iv, (cpu, kind))
                         ORDER BY cpu, kind, ts)"),
            (Table{{"0", "15", "0", "x"}, {"20", "5", "0", "x"}, {"0", "100", "0", "y"},
                   {"0", "5", "1", "x"}}));
}

TEST(StdMetasql, UnparenthesizeExprList) {
  TraceBuilder b;
  auto db = b.Open();
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE std.metasql.unparenthesize;
                         SELECT metasql_unparenthesize_exprlist!((1, 'two', 1 + 2)))"),
            (Table{{"1", "two", "3"}}));
}

}  // namespace
}  // namespace tw::stdlib_testing
