// slices.time_in_state, slices.cpu_time and sched.time_in_state read tables computed in C++
// (query/thread_slice_time_tables.h, query/thread_time_in_state_table.h). On a random trace
// (nested slices, slices on the idle thread, on process and global tracks and with dur 0 or -1;
// states that tile, overlap or have dur 0 or -1, NULL states, io_wait and blocked functions;
// sched rows on several CPUs) each view must give exactly the rows of the SQL it replaced.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// The SQL the derived tables replaced, verbatim but for the final ORDER BY, which now names
// every grouping column (the old view ordered by slice id only).
constexpr char kOldSliceTimeInState[] = R"(
  SELECT sl.id, sl.name, sl.utid, sl.thread_name, sl.upid, sl.process_name,
    st.state, st.io_wait, st.blocked_function,
    SUM(MIN(st.ts + st.dur, sl.ts + sl.dur) - MAX(st.ts, sl.ts)) AS dur
  FROM thread_slice AS sl
  JOIN thread_state AS st
    ON st.utid = sl.utid AND st.ts < sl.ts + sl.dur AND st.ts + st.dur > sl.ts
  WHERE sl.utid > 0 AND sl.dur > 0 AND st.dur > 0
  GROUP BY sl.id, st.state, st.io_wait, st.blocked_function
  ORDER BY sl.id, st.state, st.io_wait, st.blocked_function)";

constexpr char kOldSliceCpuTime[] = R"(
  SELECT * FROM (
    SELECT ts.id, ts.name, ts.utid, ts.thread_name, ts.upid, ts.process_name,
      (SELECT SUM(MIN(s.ts + s.dur, ts.ts + ts.dur) - MAX(s.ts, ts.ts))
       FROM sched AS s
       WHERE s.utid = ts.utid AND s.dur > 0 AND s.ts < ts.ts + ts.dur AND s.ts + s.dur > ts.ts
      ) AS cpu_time
    FROM thread_slice AS ts
    WHERE ts.utid > 0 AND ts.dur > 0)
  WHERE cpu_time IS NOT NULL
  ORDER BY id)";

constexpr char kOldThreadTimeInState[] = R"(
  WITH
    per_state AS (
      SELECT utid, state, SUM(dur) AS time_in_state FROM thread_state WHERE dur > 0
      GROUP BY utid, state),
    totals AS (SELECT utid, SUM(time_in_state) AS total FROM per_state GROUP BY utid)
  SELECT p.utid, t.total AS total_runtime, p.state, p.time_in_state,
    p.time_in_state * 100 / t.total AS percentage_in_state
  FROM per_state AS p JOIN totals AS t USING (utid)
  ORDER BY p.utid, p.state)";

struct RandomTrace {
  TraceBuilder b;
  uint64_t x = 1717;
  int64_t Next(int64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((x >> 33) % static_cast<uint64_t>(n));
  }
  int64_t Dur(int64_t typical) {  // mostly positive; sometimes 0 or -1 (never ended)
    const int64_t roll = Next(20);
    return roll == 0 ? 0 : roll == 1 ? -1 : 1 + Next(typical);
  }

  std::unique_ptr<TraceDatabase> Build() {
    const char* const kStates[] = {"Running", "R", "R+", "S", "D", "D", "x"};
    const char* const kFunctions[] = {"", "do_sys_open", "io_schedule"};
    std::vector<uint32_t> threads = {b.Thread(0, "swapper")};
    const uint32_t app = b.Process(10, "com.example");
    const uint32_t other = b.Process(20, "");
    for (int i = 0; i < 8; ++i) {
      const std::string name = i == 5 ? "" : "t" + std::to_string(i);
      threads.push_back(i % 3 == 0 ? b.Thread(100 + i, name)
                                   : b.Thread(100 + i, name, i % 3 == 1 ? app : other));
    }
    // States: each thread's tile its timeline, with a few stray overlapping rows; the last
    // thread has none.
    for (size_t t = 0; t + 1 < threads.size(); ++t) {
      int64_t ts = Next(50);
      while (ts < 20'000) {
        const int64_t dur = Next(15) == 0 ? Dur(3'000) : Dur(200);
        const uint32_t row = b.State(threads[t], ts, dur, kStates[Next(7)]);
        if (Next(25) == 0) b.s.thread_state.state.Set(row, kNullStringId);
        if (const int64_t io = Next(4); io < 2) {
          b.s.thread_state.io_wait.Set(row, static_cast<int8_t>(io));
        }
        if (const char* f = kFunctions[Next(3)]; *f) {
          b.s.thread_state.blocked_function.Set(row, b.s.Intern(f));
        }
        if (Next(30) == 0) b.State(threads[t], ts + Next(100), Dur(500), "S");  // overlaps
        ts += dur > 0 ? dur : 1 + Next(20);
      }
    }
    // Sched rows on 4 CPUs, inserted in ts order (sched.ts is declared sorted).
    std::vector<std::tuple<int64_t, int64_t, uint32_t, uint32_t>> runs;  // ts, dur, utid, cpu
    for (int i = 0; i < 3000; ++i) {
      runs.emplace_back(Next(21'000), Dur(150), threads[Next(threads.size())], Next(4));
    }
    std::sort(runs.begin(), runs.end());
    for (const auto& [ts, dur, utid, cpu] : runs) b.Sched(cpu, ts, dur, utid);
    // Slices: nested on thread tracks (the idle thread's too, a second track on one thread),
    // on a process track, a global track and a track of a thread that does not exist.
    std::vector<uint32_t> tracks;
    for (uint32_t utid : threads) tracks.push_back(b.ThreadTrack(utid));
    tracks.push_back(b.ThreadTrack(threads[2], "second"));
    tracks.push_back(b.ProcessTrack(app, "async"));
    tracks.push_back(b.GlobalTrack("global"));
    const uint32_t ghost = b.ThreadTrack(threads[1]);
    b.s.track.utid.Set(ghost, 9'999);
    tracks.push_back(ghost);
    for (int i = 0; i < 1500; ++i) {
      const uint32_t track = tracks[Next(tracks.size())];
      const int64_t ts = Next(20'000);
      const int64_t dur = Dur(1'500);
      const uint32_t root = b.Slice(track, ts, dur, "s" + std::to_string(Next(5)));
      if (dur > 10 && Next(2) == 0) {
        const int64_t child_ts = ts + Next(dur / 2);
        b.Slice(track, child_ts, Dur(dur / 2), "child", root);
      }
    }
    return b.Open(0, 21'000);
  }
};

TEST(TimeBreakdownDerivedTables, SliceTimeInStateMatchesTheJoin) {
  RandomTrace t;
  auto db = t.Build();
  const Table old = Rows(*db, std::string("INCLUDE PERFETTO MODULE slices.with_context;") +
                                  kOldSliceTimeInState);
  ASSERT_GT(old.size(), 2000u);
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE slices.time_in_state;"
                      "SELECT * FROM thread_slice_time_in_state"),
            old);
}

TEST(TimeBreakdownDerivedTables, SliceCpuTimeMatchesTheLookup) {
  RandomTrace t;
  auto db = t.Build();
  const Table old =
      Rows(*db, std::string("INCLUDE PERFETTO MODULE slices.with_context;") + kOldSliceCpuTime);
  ASSERT_GT(old.size(), 300u);
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE slices.cpu_time;"
                      "SELECT * FROM thread_slice_cpu_time"),
            old);
}

TEST(TimeBreakdownDerivedTables, ThreadTimeInStateMatchesTheGroupBy) {
  RandomTrace t;
  auto db = t.Build();
  const Table old = Rows(*db, kOldThreadTimeInState);
  ASSERT_GT(old.size(), 40u);
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE sched.time_in_state;"
                      "SELECT * FROM sched_time_in_state_for_thread"),
            old);
  // NULL states group on their own, first.
  EXPECT_EQ(Scalar(*db, "SELECT COUNT(*) > 0 FROM sched_time_in_state_for_thread "
                        "WHERE state IS NULL"),
            "1");
}

}  // namespace
}  // namespace tw::stdlib_testing
