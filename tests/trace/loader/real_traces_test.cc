// Loads every real Perfetto trace in ../shared/traces/perfetto and checks what we know about
// them: they load, scheduling data is self-consistent, and spot counts stay what they are.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "libs/trace/trace_loader.h"

namespace tw {
namespace {

namespace fs = std::filesystem;

std::string TracesDir() { return std::string(TW_SHARED_DIR) + "/traces/perfetto"; }

int64_t QueryInt(LoadedTrace& trace, const std::string& sql) {
  auto result = trace.Query(sql);
  EXPECT_TRUE(result.ok()) << result.status() << " for " << sql;
  if (!result.ok() || result->rows.empty()) return -1;
  return result->rows[0][0].int_value;
}

std::unique_ptr<LoadedTrace> Load(const std::string& name) {
  auto trace = LoadTraceFile(TracesDir() + "/" + name);
  EXPECT_TRUE(trace.ok()) << trace.status();
  return trace.ok() ? std::move(*trace) : nullptr;
}

class RealTracesTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(TracesDir())) GTEST_SKIP() << "no real traces at " << TracesDir();
  }
};

TEST_F(RealTracesTest, EveryPerfettoTraceLoads) {
  int loaded = 0;
  for (const auto& entry : fs::directory_iterator(TracesDir())) {
    auto trace = LoadTraceFile(entry.path().string());
    ASSERT_TRUE(trace.ok()) << entry.path() << ": " << trace.status();
    EXPECT_GT((*trace)->info().packets, 0) << entry.path();
    ++loaded;
  }
  EXPECT_GE(loaded, 10);
}

TEST_F(RealTracesTest, SchedulingIsConsistent) {
  for (const char* name : {"mspt__test_trace.perfetto-trace",
                           "perfetto-skills__api32_startup_warm.perfetto-trace",
                           "simple_perfetto__2026-03-09_23-28_b8c6.pftrace"}) {
    SCOPED_TRACE(name);
    auto trace = Load(name);
    ASSERT_TRUE(trace);
    // Slices on one cpu never overlap, and only the last one per cpu is unfinished.
    EXPECT_EQ(QueryInt(*trace,
                       "SELECT COUNT(*) FROM (SELECT ts, dur, LEAD(ts) OVER (PARTITION BY cpu "
                       "ORDER BY ts) AS next FROM sched) WHERE next IS NOT NULL AND "
                       "(dur < 0 OR ts + dur > next)"),
              0);
    // A thread is never in two states at once.
    EXPECT_EQ(QueryInt(*trace,
                       "SELECT COUNT(*) FROM (SELECT ts, dur, LEAD(ts) OVER (PARTITION BY utid "
                       "ORDER BY ts) AS next FROM thread_state) WHERE next IS NOT NULL AND "
                       "dur >= 0 AND ts + dur > next"),
              0);
    // Every running interval in thread_state has its sched slice.
    EXPECT_EQ(QueryInt(*trace,
                       "SELECT COUNT(*) FROM thread_state s WHERE state = 'Running' AND NOT "
                       "EXISTS (SELECT 1 FROM sched WHERE sched.utid = s.utid AND sched.ts = s.ts)"),
              0);
    EXPECT_EQ(QueryInt(*trace, "SELECT COUNT(*) FROM thread_state WHERE utid = 0"), 0);
  }
}

TEST_F(RealTracesTest, SpotCounts) {
  auto t = Load("mspt__test_trace.perfetto-trace");
  ASSERT_TRUE(t);
  EXPECT_EQ(QueryInt(*t, "SELECT COUNT(*) FROM sched"), 15267);
  EXPECT_EQ(QueryInt(*t, "SELECT COUNT(DISTINCT cpu) FROM sched"), 5);
  EXPECT_EQ(QueryInt(*t, "SELECT COUNT(*) FROM counter JOIN cpu_counter_track t "
                         "ON counter.track_id = t.id WHERE t.name = 'cpufreq'"),
            168);

  auto startup = Load("perfetto-skills__api32_startup_warm.perfetto-trace");
  ASSERT_TRUE(startup);
  // compact_sched: the first switch on each cpu only tells who runs next, so it makes no row.
  EXPECT_EQ(QueryInt(*startup, "SELECT COUNT(*) FROM sched"), 11078);
  EXPECT_GT(QueryInt(*startup, "SELECT COUNT(*) FROM slice WHERE name GLOB 'Choreographer*'"), 0);
  EXPECT_GT(QueryInt(*startup, "SELECT COUNT(*) FROM thread WHERE name = 'RenderThread'"), 0);

  auto idle = Load("simple_perfetto__2026-03-09_23-28_b8c6.pftrace");
  ASSERT_TRUE(idle);
  EXPECT_EQ(QueryInt(*idle, "SELECT COUNT(*) FROM sched"), 24637);
  EXPECT_EQ(QueryInt(*idle, "SELECT COUNT(*) FROM slice WHERE dur < -1"), 0);
}

}  // namespace
}  // namespace tw
