// The scenarios that test a diagnosis's judgement — two causes, decoys, a subtle problem, one bad
// interval, thermal throttling with contention, a cold start with two blocking causes, an ANR
// from a binder call, slow and fast input, memory pressure and its clean twin — and the device
// models: each generated small and loaded with our own engine, the tables must show what the
// ground truth says was planted.

#include <limits>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "libs/trace/trace_loader.h"
#include "tests/common/process_temp_dir.h"
#include "tools/tracegen/tracegen.h"

namespace tw::tracegen {
namespace {

struct Generated {
  GroundTruth truth;
  std::unique_ptr<LoadedTrace> trace;
};

Generated Generate(const std::string& scenario, double seconds = 0, int fps = 60,
                   uint32_t little = 4, uint32_t big = 4, uint64_t seed = 7) {
  TracegenOptions o;
  o.scenario = scenario;
  o.seed = seed;
  o.duration_s = seconds;
  o.fps = fps;
  o.little_cpus = little;
  o.big_cpus = big;
  Generated g;
  const std::string path = ::tw::testing::ProcessTempDir() + "/" + scenario + ".pftrace";
  auto truth = GenerateTrace(o, path);
  EXPECT_TRUE(truth.ok()) << truth.status();
  if (!truth.ok()) return g;
  g.truth = *truth;
  auto loaded = LoadTraceFile(path);
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (loaded.ok()) g.trace = std::move(*loaded);
  return g;
}

int64_t QueryInt(LoadedTrace& t, const std::string& sql) {
  auto r = t.Query(sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status();
  if (!r.ok() || r->rows.empty() || r->rows[0].empty()) return -999;
  return r->rows[0][0].int_value;
}

int64_t JankyWithCause(const GroundTruth& t, const std::string& cause) {
  int64_t n = 0;
  for (const JankyFrame& j : t.janky_frames) n += j.cause == cause && j.jank_type == "App Deadline Missed";
  return n;
}

TEST(TracegenJudgementTest, TwoCausesPlantBinderAndGcFrames) {
  Generated g = Generate("scroll_binder_gc", 4);
  ASSERT_TRUE(g.trace);
  EXPECT_EQ(g.truth.planted_causes, (std::vector<std::string>{"binder", "gc"}));
  EXPECT_GE(JankyWithCause(g.truth, "binder"), 5);
  EXPECT_GE(JankyWithCause(g.truth, "gc"), 3);
  EXPECT_GT(JankyWithCause(g.truth, "binder"), JankyWithCause(g.truth, "gc"));  // binder leads
  EXPECT_EQ(QueryInt(*g.trace, "SELECT COUNT(*) FROM slice WHERE name = 'WaitForGcToComplete'"),
            g.truth.gc_events);
  EXPECT_FALSE(g.truth.injected_binder.empty());
}

TEST(TracegenJudgementTest, DecoysAreBusyButTheScrollIsSmooth) {
  Generated g = Generate("scroll_decoys", 3);
  ASSERT_TRUE(g.trace);
  EXPECT_EQ(g.truth.frames_app_deadline_missed, 0);
  EXPECT_EQ(g.truth.decoys.size(), 3u);
  LoadedTrace& t = *g.trace;
  // Background GC in another process, slow binder calls off the app's main thread, a busy
  // thread on the little cores only.
  EXPECT_GE(QueryInt(t, "SELECT COUNT(*) FROM slice s JOIN thread_track tt ON s.track_id = tt.id "
                        "JOIN thread USING (utid) JOIN process p USING (upid) "
                        "WHERE p.name = 'com.google.android.gms' AND s.name GLOB '*concurrent copying GC'"),
            5);
  EXPECT_GE(QueryInt(t, "SELECT COUNT(*) FROM slice s JOIN thread_track tt ON s.track_id = tt.id "
                        "JOIN thread t USING (utid) WHERE t.name = 'DefaultDispatch' "
                        "AND s.name = 'binder transaction' AND s.dur > 20000000"),
            5);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM sched s JOIN thread t USING (utid) "
                        "WHERE t.name = 'InstallQueue0' AND s.cpu >= 4"),
            0);
  EXPECT_GT(QueryInt(t, "SELECT SUM(s.dur) FROM sched s JOIN thread t USING (utid) "
                        "WHERE t.name = 'InstallQueue0'"),
            1'000'000'000);
}

TEST(TracegenJudgementTest, SubtleHasFiveLateFramesInSixHundredOfMainThreadIo) {
  Generated g = Generate("scroll_subtle", 10);
  ASSERT_TRUE(g.trace);
  EXPECT_GE(g.truth.frames_total, 580);
  EXPECT_EQ(JankyWithCause(g.truth, "io"), 5);
  EXPECT_EQ(g.truth.frames_app_deadline_missed, 5);
  LoadedTrace& t = *g.trace;
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM slice WHERE name = 'FeedCache.readFromDisk'"), 5);
  // Each read is a block request that completes, and fills the page cache.
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM ftrace_event WHERE name = 'block_rq_issue'"), 15);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM ftrace_event WHERE name = 'block_rq_complete'"), 15);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM ftrace_event WHERE name = 'mm_filemap_add_to_page_cache'"), 60);
  EXPECT_GE(QueryInt(t, "SELECT COUNT(*) FROM thread_state s JOIN thread t USING (utid) "
                        "WHERE t.tid = 8123 AND s.state = 'D' AND s.io_wait = 1"),
            15);
}

TEST(TracegenJudgementTest, OneBadIntervalInALongScroll) {
  Generated g = Generate("scroll_bad_interval", 20, 90);
  ASSERT_TRUE(g.trace);
  ASSERT_GT(g.truth.problem_to_ns, g.truth.problem_from_ns);
  // Every late frame is inside the bad interval, and nearly all frames outside it are fine.
  int64_t inside = 0, outside = 0;
  for (const JankyFrame& j : g.truth.janky_frames) {
    if (j.jank_type != "App Deadline Missed") continue;
    (j.ts + j.dur > g.truth.problem_from_ns && j.ts < g.truth.problem_to_ns ? inside : outside)++;
  }
  EXPECT_GE(inside, 10);
  EXPECT_LE(outside, 2);
  EXPECT_EQ(g.truth.cpu_hog_process, "com.google.android.apps.photos");
}

TEST(TracegenJudgementTest, ThermalWithContentionPlantsBoth) {
  Generated g = Generate("scroll_thermal_contention", 4);
  ASSERT_TRUE(g.trace);
  EXPECT_GT(g.truth.thermal_cap_ts, g.truth.cpu_contention_to_ns);  // contention first, then the cap
  EXPECT_GE(JankyWithCause(g.truth, "cpu_contention"), 3);
  EXPECT_GE(JankyWithCause(g.truth, "thermal_throttling"), 3);
}

TEST(TracegenJudgementTest, ColdStartWithTwoBlockingCauses) {
  Generated g = Generate("startup_cold_two_causes");
  ASSERT_TRUE(g.trace);
  EXPECT_EQ(g.truth.startup_type, "cold");
  ASSERT_EQ(g.truth.startup_blocking.size(), 2u);
  LoadedTrace& t = *g.trace;
  // The provider lookup is a main-thread binder call during bindApplication; the database
  // migration holds the lock activityStart needs.
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM slice s JOIN slice p ON s.parent_id = p.id "
                        "WHERE p.name = 'ContentProviderHelper.acquireProvider' "
                        "AND s.name = 'binder transaction' AND s.dur >= 100000000"),
            1);
  EXPECT_GE(QueryInt(t, "SELECT COUNT(*) FROM slice WHERE name GLOB 'monitor contention with owner pool-3-thread-1*' "
                        "AND dur >= 50000000"),
            1);
  EXPECT_GE(g.truth.monitor_contentions, 1);
}

TEST(TracegenJudgementTest, AnrFromABinderCall) {
  Generated g = Generate("anr_binder");
  ASSERT_TRUE(g.trace);
  EXPECT_EQ(g.truth.anr_type, "INPUT_DISPATCHING_TIMEOUT");
  ASSERT_FALSE(g.truth.injected_binder.empty());
  EXPECT_EQ(g.truth.injected_binder.front().aidl, "AIDL::java::IPackageManager::getInstalledPackages::server");
  // The call outlives the 5 s input-dispatch timeout: it ends after the ANR or is still in
  // flight when the trace stops (dur -1).
  const int64_t call_end = g.truth.injected_binder.front().dur < 0
                               ? std::numeric_limits<int64_t>::max()
                               : g.truth.injected_binder.front().ts + g.truth.injected_binder.front().dur;
  LoadedTrace& t = *g.trace;
  ASSERT_TRUE(t.Query("INCLUDE PERFETTO MODULE android.anrs").ok());
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM android_anrs"), 1);
  // The ANR fired while the call was in flight.
  EXPECT_LT(g.truth.injected_binder.front().ts, g.truth.anr_ts);
  EXPECT_GT(call_end, g.truth.anr_ts);
  EXPECT_GE(QueryInt(t, "SELECT COUNT(*) FROM slice WHERE name = 'binder transaction' AND (dur = -1 OR dur > 5000000000)"), 1);
}

TEST(TracegenJudgementTest, SlowAndFastInput) {
  Generated slow = Generate("input_slow");
  ASSERT_TRUE(slow.trace);
  EXPECT_GE(slow.truth.slow_input_events, 4);
  ASSERT_TRUE(slow.trace->Query("INCLUDE PERFETTO MODULE android.input").ok());
  EXPECT_EQ(QueryInt(*slow.trace, "SELECT COUNT(*) FROM android_input_events"),
            static_cast<int64_t>(slow.truth.input_events.size()));
  EXPECT_GE(QueryInt(*slow.trace, "SELECT COUNT(*) FROM android_input_events WHERE total_latency_dur >= 150000000"),
            slow.truth.slow_input_events);
  Generated fast = Generate("input_fast");
  ASSERT_TRUE(fast.trace);
  ASSERT_TRUE(fast.trace->Query("INCLUDE PERFETTO MODULE android.input").ok());
  EXPECT_EQ(QueryInt(*fast.trace, "SELECT COUNT(*) FROM android_input_events WHERE total_latency_dur >= 50000000"), 0);
  EXPECT_GE(QueryInt(*fast.trace, "SELECT COUNT(*) FROM android_input_events"), 8);
}

TEST(TracegenJudgementTest, MemoryPressureKillsReclaimsAndGrows) {
  Generated g = Generate("memory_pressure", 3);
  ASSERT_TRUE(g.trace);
  LoadedTrace& t = *g.trace;
  ASSERT_EQ(g.truth.lmk_victims.size(), 3u);
  // lmkd's kill markers, one per victim, naming its pid.
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM slice WHERE name GLOB 'lmk,*'"), 3);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM slice s JOIN process p ON p.pid = CAST(substr(s.name, 5, "
                        "instr(substr(s.name, 5), ',') - 1) AS INT) WHERE s.name GLOB 'lmk,*' "
                        "AND p.name GLOB 'com.example.cached.*'"),
            3);
  // Direct reclaim on the app's main thread, begin and end paired, as many as the truth says.
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM ftrace_event e JOIN thread t USING (utid) "
                        "WHERE e.name = 'mm_vmscan_direct_reclaim_begin' AND t.tid = 8123"),
            g.truth.direct_reclaims);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM ftrace_event WHERE name = 'mm_vmscan_direct_reclaim_end'"),
            g.truth.direct_reclaims);
  // kswapd ran for over a fifth of the trace.
  EXPECT_GT(QueryInt(t, "SELECT SUM(s.dur) FROM sched s JOIN thread t USING (utid) WHERE t.name = 'kswapd0'"),
            (g.truth.trace_end_ns - g.truth.trace_start_ns) / 5);
  // The app's RSS grows; the victims are no longer polled after their kill.
  EXPECT_GT(g.truth.app_rss_last_bytes, g.truth.app_rss_first_bytes + 50'000'000);

  Generated steady = Generate("memory_steady", 3);
  ASSERT_TRUE(steady.trace);
  EXPECT_GT(steady.truth.memory_polls, 20);
  EXPECT_LT(steady.truth.app_rss_last_bytes - steady.truth.app_rss_first_bytes, 2'000'000);
  EXPECT_EQ(QueryInt(*steady.trace, "SELECT COUNT(*) FROM slice WHERE name GLOB 'lmk,*'"), 0);
}

TEST(TracegenJudgementTest, DeviceModelsChangeTheCoresAndTheCappedCluster) {
  for (auto [little, big] : {std::pair<uint32_t, uint32_t>{6, 2}, {2, 2}}) {
    Generated g = Generate("scroll_thermal", 3, 120, little, big);
    ASSERT_TRUE(g.trace);
    EXPECT_EQ(QueryInt(*g.trace, "SELECT COUNT(*) FROM cpu"), little + big);
    ASSERT_EQ(g.truth.thermal_capped_cpus.size(), big);
    EXPECT_EQ(g.truth.thermal_capped_cpus.front(), little);  // the big cluster follows the little one
    // The app's main thread runs on the big cluster only.
    EXPECT_EQ(QueryInt(*g.trace, "SELECT COUNT(*) FROM sched s JOIN thread t USING (utid) "
                                 "WHERE t.tid = 8123 AND s.cpu < " + std::to_string(little)),
              0);
  }
  TracegenOptions o;
  o.scenario = "scroll_smooth";
  o.little_cpus = 0;
  EXPECT_FALSE(GenerateTrace(o, ::tw::testing::ProcessTempDir() + "/bad.pftrace").ok());
}

TEST(TracegenJudgementTest, IdleWakeupsPlantsATimerAOnewayFloodAndFsyncsAndTheQuietTwinNone) {
  for (double seconds : {2.0, 4.0}) {
    Generated g = Generate("idle_wakeups", seconds);
    ASSERT_NE(g.trace, nullptr);
    const GroundTruth& t = g.truth;
    EXPECT_EQ(t.planted_causes, (std::vector<std::string>{"power_wakeups", "binder_flood"}));
    // A wakeup every ~2 ms, a oneway call every ~4 ms, a sync every ~100 ms, from 50 ms in.
    const double active = seconds - 0.1;
    EXPECT_NEAR(static_cast<double>(t.wakeups_planted), active / 0.00205, active / 0.00205 * 0.1) << seconds;
    EXPECT_NEAR(static_cast<double>(t.oneway_calls), active / 0.00407, active / 0.00407 * 0.1) << seconds;
    EXPECT_NEAR(static_cast<double>(t.fsyncs), active / 0.1045, 2) << seconds;
    // What the trace holds agrees: one run of the timer thread per wakeup (a run the scheduler
    // preempted shows as two sched slices), the oneway transactions, the syncs.
    const int64_t timer_slices =
        QueryInt(*g.trace, "SELECT COUNT(*) FROM sched s JOIN thread t USING (utid) WHERE t.name = '" +
                               t.wakeup_thread + "' AND s.dur > 0");
    EXPECT_GE(timer_slices, t.wakeups_planted);
    EXPECT_LE(timer_slices, t.wakeups_planted * 102 / 100);
    EXPECT_EQ(QueryInt(*g.trace, "INCLUDE PERFETTO MODULE android.binder; SELECT COUNT(*) FROM "
                                 "android_binder_txns WHERE is_sync = 0 AND aidl_name = '" + t.oneway_method + "'"),
              t.oneway_calls);
    EXPECT_EQ(QueryInt(*g.trace, "SELECT COUNT(*) FROM ftrace_event WHERE name = 'f2fs_sync_file_exit'"), t.fsyncs);
  }
  Generated quiet = Generate("idle_quiet", 3);
  ASSERT_NE(quiet.trace, nullptr);
  EXPECT_TRUE(quiet.truth.planted_causes.empty());
  EXPECT_EQ(QueryInt(*quiet.trace, "SELECT COUNT(*) FROM process WHERE name = 'com.example.sync'"), 0);
  EXPECT_EQ(QueryInt(*quiet.trace, "SELECT COUNT(*) FROM ftrace_event WHERE name GLOB 'f2fs_sync_file_*'"), 0);
}

}  // namespace
}  // namespace tw::tracegen
