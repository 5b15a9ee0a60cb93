// sched.thread_level_parallelism, sched.states, sched.runnable and sched.latency.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// utid 0: swapper (idle); 1, 2, 3: ordinary threads.
//   sched:  0 [0,150) cpu1 utid3; 1 [20,100) cpu0 utid1; 2 [100,220) cpu0 swapper;
//           3 [150,300) cpu1 utid2; 4 [220,260) cpu0 utid1
//   states: utid1: 0 R [0,20) woken by 2; 1 Running [20,100); 2 S [100,200); 3 R+ [200,220);
//                  4 Running [220,260); 5 R from 260, unfinished
//           utid2: 6 D [0,50); 7 R [50,150) woken by 1 from an interrupt; 8 Running [150,300)
std::unique_ptr<TraceDatabase> OpenSchedTrace(TraceBuilder& b) {
  const uint32_t swapper = b.Thread(0, "swapper");
  b.s.thread.is_idle.Set(swapper, 1);
  const uint32_t t1 = b.Thread(11, "t1");
  const uint32_t t2 = b.Thread(12, "t2");
  const uint32_t t3 = b.Thread(13, "t3");
  const StringId s = b.s.Intern("S");
  b.s.sched_slice.Insert(
      {.ts = 0, .dur = 150, .utid = t3, .end_state = s, .priority = 120, .ucpu = 1});
  b.s.sched_slice.Insert(
      {.ts = 20, .dur = 80, .utid = t1, .end_state = s, .priority = 120, .ucpu = 0});
  b.s.sched_slice.Insert({.ts = 100,
                          .dur = 120,
                          .utid = swapper,
                          .end_state = b.s.Intern("R"),
                          .priority = 120,
                          .ucpu = 0});
  b.s.sched_slice.Insert(
      {.ts = 150, .dur = 150, .utid = t2, .end_state = s, .priority = 120, .ucpu = 1});
  b.s.sched_slice.Insert(
      {.ts = 220, .dur = 40, .utid = t1, .end_state = s, .priority = 120, .ucpu = 0});
  b.State(t1, 0, 20, "R", t2);
  b.State(t1, 20, 80, "Running");
  b.State(t1, 100, 100, "S");
  b.State(t1, 200, 20, "R+");
  b.State(t1, 220, 40, "Running");
  b.State(t1, 260, -1, "R");
  b.State(t2, 0, 50, "D");
  b.State(t2, 50, 100, "R", t1, int8_t{1});
  b.State(t2, 150, 150, "Running");
  return b.Open(0, 400);
}

TEST(SchedThreadLevelParallelism, ActiveCpuCountSkipsIdleThreads) {
  TraceBuilder b;
  auto db = OpenSchedTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE sched.thread_level_parallelism;
                         SELECT * FROM sched_active_cpu_count)"),
            (Table{{"0", "1"}, {"20", "2"}, {"100", "1"}, {"150", "1"}, {"220", "2"},
                   {"260", "1"}, {"300", "0"}}));
}

TEST(SchedThreadLevelParallelism, RunnableThreadCountCountsOnlyR) {
  TraceBuilder b;
  auto db = OpenSchedTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE sched.thread_level_parallelism;
                         SELECT ts, runnable_thread_count FROM sched_runnable_thread_count)"),
            (Table{{"0", "1"}, {"20", "0"}, {"50", "1"}, {"150", "0"}, {"260", "1"}}));
  EXPECT_EQ(Rows(*db, "SELECT * FROM sched_uninterruptible_sleep_thread_count"),
            (Table{{"0", "1"}, {"50", "0"}}));
}

TEST(SchedStates, HumanReadableNames) {
  TraceBuilder b;
  auto db = b.Open();
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE sched.states;
                         SELECT sched_state_to_human_readable_string('R+'),
                                sched_state_to_human_readable_string('D'),
                                sched_state_to_human_readable_string('Running'),
                                sched_state_to_human_readable_string('Q'),
                                sched_state_to_human_readable_string(NULL))"),
            (Table{{"Runnable (Preempted)", "Uninterruptible Sleep", "Running", "Q", "NULL"}}));
  EXPECT_EQ(Rows(*db, R"(SELECT sched_state_io_to_human_readable_string('D', 1),
                                sched_state_io_to_human_readable_string('S', 0),
                                sched_state_io_to_human_readable_string('S', NULL),
                                sched_state_io_to_human_readable_string(NULL, NULL))"),
            (Table{{"Uninterruptible Sleep (IO)", "Sleeping (non-IO)", "Sleeping", ""}}));
}

TEST(SchedRunnable, PreviousRunnableOnThread) {
  TraceBuilder b;
  auto db = OpenSchedTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE sched.runnable;
                         SELECT id, prev_runnable_id, prev_wakeup_runnable_id
                         FROM sched_previous_runnable_on_thread)"),
            (Table{{"1", "0", "0"}, {"4", "3", "0"}, {"8", "7", "NULL"}}));
}

// sched_previous_runnable_on_thread is computed in C++ (query/derived_tables.h); on many
// interleaved threads with every kind of state, waker and interrupt flag, and unfinished
// states, it must give exactly the rows of the window query it replaced.
TEST(SchedRunnable, PreviousRunnableMatchesTheWindowDefinition) {
  TraceBuilder b;
  std::vector<uint32_t> threads;
  for (int i = 0; i < 12; ++i) threads.push_back(b.Thread(100 + i, "t"));
  const char* const kStates[] = {"R", "R+", "Running", "S", "D", "Running", "R"};
  uint64_t x = 12345;
  auto next = [&](uint64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (x >> 33) % n;
  };
  for (int i = 0; i < 4000; ++i) {
    const uint32_t utid = threads[next(threads.size())];
    const std::string_view state = kStates[next(7)];
    std::optional<uint32_t> waker;
    if (next(2)) waker = threads[next(threads.size())];
    std::optional<int8_t> irq;
    if (next(3)) irq = static_cast<int8_t>(next(2));
    b.State(utid, i * 10, next(20) == 0 ? -1 : 10, state, waker, irq);
  }
  auto db = b.Open(0, 50'000);
  const std::string window = R"(
      SELECT id, prev_runnable_id, prev_wakeup_runnable_id FROM (
        SELECT id, state,
          MAX(id) FILTER (WHERE state != 'Running') OVER so_far AS prev_runnable_id,
          MAX(id) FILTER (WHERE waker_utid IS NOT NULL AND IFNULL(irq_context, 0) != 1)
            OVER so_far AS prev_wakeup_runnable_id
        FROM thread_state
        WHERE state GLOB 'R*' AND dur != -1
        WINDOW so_far AS (PARTITION BY utid ORDER BY id))
      WHERE state = 'Running')";
  const Table expected = Rows(*db, window + " ORDER BY id");
  ASSERT_GT(expected.size(), 500u);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE sched.runnable;
                         SELECT id, prev_runnable_id, prev_wakeup_runnable_id
                         FROM sched_previous_runnable_on_thread)"),
            expected);
}

// The thread_level_parallelism counters are counted in C++ (query/derived_tables.h); on many
// overlapping states and sched slices, idle thread included, they must give exactly the rows
// of intervals_overlap_count! over the same intervals.
TEST(SchedThreadLevelParallelism, CountersMatchTheOverlapMacro) {
  TraceBuilder b;
  const uint32_t idle = b.Thread(0, "swapper");
  b.s.thread.is_idle.Set(idle, 1);
  std::vector<uint32_t> threads = {idle};
  for (int i = 0; i < 12; ++i) threads.push_back(b.Thread(100 + i, "t"));
  const char* const kStates[] = {"R", "R+", "Running", "S", "D"};
  uint64_t x = 777;
  auto next = [&](uint64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (x >> 33) % n;
  };
  for (int i = 0; i < 3000; ++i) {
    const int64_t ts = static_cast<int64_t>(next(20'000));
    const int64_t dur = next(15) == 0 ? -1 : static_cast<int64_t>(next(300));
    b.State(threads[1 + next(12)], ts, dur, kStates[next(5)]);
    // sched_slice.ts is declared sorted: these start in row order.
    b.s.sched_slice.Insert({.ts = i * 7,
                            .dur = dur,
                            .utid = threads[next(threads.size())],
                            .priority = 120,
                            .ucpu = static_cast<uint32_t>(next(4))});
  }
  auto db = b.Open(0, 50'000);
  const Table runnable = Rows(*db, R"(INCLUDE PERFETTO MODULE intervals.overlap;
      SELECT ts, value FROM intervals_overlap_count!(
        (SELECT ts, dur FROM thread_state WHERE state = 'R'), ts, dur) ORDER BY ts)");
  const Table blocked = Rows(*db, R"(SELECT ts, value FROM intervals_overlap_count!(
        (SELECT ts, dur FROM thread_state WHERE state = 'D'), ts, dur) ORDER BY ts)");
  const Table active = Rows(*db, R"(SELECT ts, value FROM intervals_overlap_count!(
        (SELECT ts, dur FROM sched WHERE utid NOT IN (SELECT utid FROM thread WHERE is_idle)),
        ts, dur) ORDER BY ts)");
  ASSERT_GT(runnable.size(), 500u);
  ASSERT_GT(active.size(), 1000u);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE sched.thread_level_parallelism;
                         SELECT * FROM sched_runnable_thread_count)"),
            runnable);
  EXPECT_EQ(Rows(*db, "SELECT * FROM sched_uninterruptible_sleep_thread_count"), blocked);
  EXPECT_EQ(Rows(*db, "SELECT * FROM sched_active_cpu_count"), active);
}

TEST(SchedLatency, RunnableTimeBeforeEachRunningInterval) {
  TraceBuilder b;
  auto db = OpenSchedTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE sched.latency;
                         SELECT thread_state_id, sched_id, utid, runnable_latency_id, latency_dur
                         FROM sched_latency_for_running_interval ORDER BY thread_state_id)"),
            (Table{{"1", "1", "1", "0", "20"}, {"4", "4", "1", "3", "20"},
                   {"8", "3", "2", "7", "100"}}));
}

// sched_latency_for_running_interval is computed in C++ (query/sched_latency_table.h); on many
// interleaved threads whose Running states mostly match a sched row (some do not, some match
// two), it must give exactly the rows of the SQL join it replaced.
TEST(SchedLatency, MatchesTheJoinDefinition) {
  TraceBuilder b;
  std::vector<uint32_t> threads;
  for (int i = 0; i < 10; ++i) threads.push_back(b.Thread(200 + i, "t"));
  const char* const kStates[] = {"R", "R+", "Running", "S", "Running", "D"};
  uint64_t x = 2024;
  auto next = [&](uint64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (x >> 33) % n;
  };
  for (int i = 0; i < 4000; ++i) {
    const uint32_t utid = threads[next(threads.size())];
    const std::string_view state = kStates[next(6)];
    const int64_t ts = i * 10;
    const int64_t dur = next(25) == 0 ? -1 : static_cast<int64_t>(next(10) + 1);
    std::optional<uint32_t> waker;
    if (next(2)) waker = threads[next(threads.size())];
    b.State(utid, ts, dur, state, waker);
    if (state == "Running") {
      // sched_slice.ts is declared sorted: the states start in row order too.
      const int copies = next(10) == 0 ? 0 : next(10) == 0 ? 2 : 1;
      for (int c = 0; c < copies; ++c) b.Sched(static_cast<uint32_t>(next(4)), ts, dur, utid);
    }
  }
  auto db = b.Open(0, 50'000);
  const Table joined = Rows(*db, R"(INCLUDE PERFETTO MODULE sched.runnable;
      SELECT r.id, sc.id, w.utid, r.prev_runnable_id, w.dur
      FROM sched_previous_runnable_on_thread AS r
      JOIN thread_state AS w ON w.id = r.prev_runnable_id
      JOIN thread_state AS st ON st.id = r.id
      JOIN sched AS sc ON st.utid = sc.utid AND st.ts = sc.ts AND st.dur = sc.dur
      ORDER BY r.id, sc.id)");
  ASSERT_GT(joined.size(), 500u);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE sched.latency;
                         SELECT thread_state_id, sched_id, utid, runnable_latency_id, latency_dur
                         FROM sched_latency_for_running_interval)"),
            joined);
}

}  // namespace
}  // namespace tw::stdlib_testing
