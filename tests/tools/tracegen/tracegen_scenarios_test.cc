// Every tracegen scenario, generated small and loaded with our own engine: the tables must say
// what the ground truth says (janky frames, binder transactions, startups, GC, contention,
// thread states, frequency caps), the same seed must give the same bytes, and plain and
// compact_sched encodings must give the same scheduling.

#include "tools/tracegen/tracegen.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/trace/trace_loader.h"
#include "nlohmann/json.hpp"
#include "tests/common/process_temp_dir.h"

namespace tw::tracegen {
namespace {

std::string TempPath(const std::string& name) { return ::tw::testing::ProcessTempDir() + "/" + name; }

struct Generated {
  GroundTruth truth;
  std::unique_ptr<LoadedTrace> trace;
  std::string path;
};

Generated Generate(TracegenOptions o, const std::string& name) {
  Generated g;
  g.path = TempPath(name);
  auto truth = GenerateTrace(o, g.path);
  EXPECT_TRUE(truth.ok()) << truth.status();
  if (!truth.ok()) return g;
  g.truth = *truth;
  auto loaded = LoadTraceFile(g.path);
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (loaded.ok()) g.trace = std::move(*loaded);
  return g;
}

Generated Generate(const std::string& scenario, double seconds = 0) {
  TracegenOptions o;
  o.scenario = scenario;
  o.seed = 7;
  o.duration_s = seconds;
  return Generate(o, scenario + ".pftrace");
}

int64_t QueryInt(LoadedTrace& t, const std::string& sql) {
  auto r = t.Query(sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status();
  if (!r.ok() || r->rows.empty() || r->rows[0].empty()) return -999;
  return r->rows[0][0].int_value;
}

std::vector<std::string> QueryRows(LoadedTrace& t, const std::string& sql) {
  std::vector<std::string> out;
  auto r = t.Query(sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status();
  if (!r.ok()) return out;
  for (const auto& row : r->rows) {
    std::string line;
    for (const SqlValue& v : row) {
      if (!line.empty()) line += ",";
      if (v.type == SqlValue::Type::kString) line += v.string_value;
      else if (v.is_null()) line += "NULL";
      else line += std::to_string(v.int_value);
    }
    out.push_back(line);
  }
  return out;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kAppFrames =
    "SELECT COUNT(*) FROM actual_frame_timeline_slice a JOIN process p USING (upid) "
    "WHERE p.pid = 8123";
const std::string kAppJanky = kAppFrames + " AND a.jank_type != 'None'";

// The frame timeline and android_frames agree with the ground truth's frame counts.
void ExpectFramesMatchTruth(Generated& g) {
  LoadedTrace& t = *g.trace;
  EXPECT_EQ(QueryInt(t, kAppFrames), g.truth.frames_total);
  EXPECT_EQ(QueryInt(t, kAppJanky), g.truth.frames_janky);
  EXPECT_EQ(QueryInt(t, kAppFrames + " AND a.jank_type = 'App Deadline Missed'"),
            g.truth.frames_app_deadline_missed);
  ASSERT_TRUE(t.Query("INCLUDE PERFETTO MODULE android.frames.timeline").ok());
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM android_frames f JOIN process p USING (upid) "
                        "WHERE p.pid = 8123 AND f.actual_frame_timeline_id IS NOT NULL"),
            g.truth.frames_total);
  // Every janky frame of the truth is janky in the table under its token.
  for (const JankyFrame& j : g.truth.janky_frames) {
    EXPECT_EQ(QueryInt(t, kAppFrames + " AND a.name = '" + std::to_string(j.surface_token) +
                              "' AND a.jank_type = '" + j.jank_type + "'"),
              1)
        << j.surface_token;
  }
}

int64_t JankyWithCause(const GroundTruth& t, const std::string& cause) {
  int64_t n = 0;
  for (const JankyFrame& j : t.janky_frames) n += j.cause == cause;
  return n;
}

TEST(TracegenTest, ListsEveryScenarioWithADescription) {
  EXPECT_EQ(Scenarios().size(), 25u);
  for (const ScenarioInfo& s : Scenarios()) {
    EXPECT_NE(std::string(s.description), "");
  }
}

TEST(TracegenTest, RejectsUnknownScenarioAndBadOptions) {
  TracegenOptions o;
  o.scenario = "nope";
  EXPECT_FALSE(GenerateTrace(o, TempPath("x.pftrace")).ok());
  o.scenario = "scroll_smooth";
  o.fps = 75;
  EXPECT_FALSE(GenerateTrace(o, TempPath("x.pftrace")).ok());
}

TEST(TracegenTest, ScrollSmoothHasFramesAndNoJank) {
  Generated g = Generate("scroll_smooth");
  ASSERT_NE(g.trace, nullptr);
  EXPECT_GT(g.truth.frames_total, 100);
  EXPECT_EQ(g.truth.frames_janky, 0);
  ExpectFramesMatchTruth(g);
  LoadedTrace& t = *g.trace;
  // The atrace slices of the pipeline are on the right threads.
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) FROM thread_slice WHERE name GLOB 'Choreographer#doFrame *' "
                        "AND tid = 8123"), 100);
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) FROM thread_slice WHERE name GLOB 'DrawFrames *' "
                        "AND thread_name = 'RenderThread'"), 100);
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) FROM thread_slice WHERE name = 'queueBuffer'"), 100);
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) FROM thread_slice WHERE name = 'measure' AND depth = 2"), 100);
  // Scheduling, frequency and idle data are all there.
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) FROM sched"), 1000);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(DISTINCT cpu) FROM sched"), 8);
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) FROM counter c JOIN cpu_counter_track t ON c.track_id = t.id "
                        "WHERE t.name = 'cpufreq'"), 8);
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) FROM counter c JOIN cpu_counter_track t ON c.track_id = t.id "
                        "WHERE t.name = 'cpuidle'"), 100);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM process WHERE name = 'system_server'"), 1);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM process WHERE name = 'com.example.feed' AND pid = 8123"), 1);
}

TEST(TracegenTest, ScrollBinderJankTransactionsAreInAndroidBinderTxns) {
  Generated g = Generate("scroll_binder_jank");
  ASSERT_NE(g.trace, nullptr);
  ExpectFramesMatchTruth(g);
  LoadedTrace& t = *g.trace;
  const GroundTruth& truth = g.truth;
  ASSERT_GE(truth.injected_binder.size(), 3u);
  ASSERT_GE(truth.injected_frame_tokens.size(), 3u);
  // Every injected frame is janky because of the binder call, and nothing else is.
  EXPECT_EQ(JankyWithCause(truth, "binder"),
            static_cast<int64_t>(truth.injected_frame_tokens.size()));
  ASSERT_TRUE(t.Query("INCLUDE PERFETTO MODULE android.binder").ok());
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM android_binder_txns WHERE client_tid = 8123 "
                        "AND server_process = 'system_server' AND client_dur > 10000000"),
            static_cast<int64_t>(truth.injected_binder.size()));
  // RenderThread hands every frame to SurfaceFlinger in a oneway (BLAST) transaction.
  EXPECT_GE(QueryInt(t, "SELECT COUNT(*) FROM android_binder_txns WHERE is_sync = 0 AND "
                        "client_thread = 'RenderThread' AND server_pid = 612"),
            truth.frames_total);
  // The app is a known package (packages_list), so process metadata has its package name.
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM package_list WHERE package_name = 'com.example.feed' "
                        "AND uid = 10234"),
            1);
  for (const InjectedBinder& b : truth.injected_binder) {
    EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM android_binder_txns WHERE client_tid = " +
                              std::to_string(b.client_tid) + " AND server_tid = " +
                              std::to_string(b.server_tid) + " AND ABS(client_ts - " +
                              std::to_string(b.ts) + ") < 1000 AND ABS(client_dur - " +
                              std::to_string(b.dur) + ") < 100000" +
                              " AND aidl_name = '" + b.aidl + "' AND is_main_thread = 1"),
              1);
  }
}

void ExpectStartup(Generated& g, const std::string& type) {
  ASSERT_NE(g.trace, nullptr);
  LoadedTrace& t = *g.trace;
  ASSERT_TRUE(t.Query("INCLUDE PERFETTO MODULE android.startup.startups").ok());
  EXPECT_EQ(QueryRows(t, "SELECT package, startup_type FROM android_startups"),
            std::vector<std::string>{"com.example.feed," + type});
  EXPECT_EQ(g.truth.startup_type, type);
  // Within the manifest's tolerance (the markers are written a few ns after the decision).
  EXPECT_NEAR(QueryInt(t, "SELECT dur FROM android_startups"), g.truth.startup_dur, 1'000'000);
  EXPECT_NEAR(QueryInt(t, "SELECT ts FROM android_startups"), g.truth.startup_ts, 1'000);
  EXPECT_EQ(QueryRows(t, "SELECT startup_type FROM android_startup_processes WHERE pid = 8123"),
            std::vector<std::string>{type});
}

TEST(TracegenTest, StartupCold) {
  Generated g = Generate("startup_cold");
  ExpectStartup(g, "cold");
  ExpectFramesMatchTruth(g);
  // zygote forked the app during the trace; its main thread renamed itself.
  EXPECT_EQ(QueryRows(*g.trace, "SELECT t.name, p.name FROM thread t JOIN process p USING (upid) "
                                "WHERE t.tid = 8123"),
            std::vector<std::string>{"om.example.feed,com.example.feed"});
  EXPECT_EQ(QueryInt(*g.trace, "SELECT COUNT(*) FROM ftrace_event WHERE name = 'task_newtask'"), 1);
}

TEST(TracegenTest, StartupColdSlowIoHasMainThreadDState) {
  Generated g = Generate("startup_cold_slow_io");
  ExpectStartup(g, "cold");
  ASSERT_NE(g.trace, nullptr);
  LoadedTrace& t = *g.trace;
  EXPECT_GT(g.truth.startup_main_thread_d_state_ns, 150'000'000);
  // The main thread's D time (I/O waits) matches what was injected, within scheduling slack.
  const int64_t d = QueryInt(t, "SELECT SUM(s.dur) FROM thread_state s JOIN thread USING (utid) "
                                "WHERE tid = 8123 AND s.state = 'D'");
  EXPECT_NEAR(d, g.truth.startup_main_thread_d_state_ns, 5'000'000);
  EXPECT_GE(QueryInt(t, "SELECT COUNT(*) FROM thread_slice WHERE tid = 8123 AND name GLOB 'L*;'"), 6);
}

TEST(TracegenTest, StartupWarm) {
  Generated g = Generate("startup_warm");
  ExpectStartup(g, "warm");
  ASSERT_NE(g.trace, nullptr);
  EXPECT_EQ(QueryInt(*g.trace, "SELECT COUNT(*) FROM slice WHERE name = 'bindApplication'"), 0);
}

TEST(TracegenTest, ScrollRenderThreadGpuJanksOnInjectedFrames) {
  Generated g = Generate("scroll_renderthread_gpu");
  ASSERT_NE(g.trace, nullptr);
  ExpectFramesMatchTruth(g);
  EXPECT_GE(JankyWithCause(g.truth, "gpu_wait"), 3);
  EXPECT_EQ(JankyWithCause(g.truth, "gpu_wait"),
            static_cast<int64_t>(g.truth.injected_frame_tokens.size()));
  EXPECT_EQ(QueryInt(*g.trace, "SELECT COUNT(*) FROM thread_slice s WHERE s.name GLOB 'waiting for GPU*' "
                               "AND thread_name = 'RenderThread'"),
            static_cast<int64_t>(g.truth.injected_frame_tokens.size()));
}

TEST(TracegenTest, ScrollCpuContentionMainThreadRunnable) {
  Generated g = Generate("scroll_cpu_contention");
  ASSERT_NE(g.trace, nullptr);
  ExpectFramesMatchTruth(g);
  EXPECT_GE(JankyWithCause(g.truth, "cpu_contention"), 1);
  EXPECT_GT(g.truth.main_thread_runnable_ns, 10'000'000);
  const int64_t runnable = QueryInt(*g.trace,
      "SELECT SUM(s.dur) FROM thread_state s JOIN thread USING (utid) WHERE tid = 8123 "
      "AND s.state IN ('R', 'R+')");
  EXPECT_GE(runnable, g.truth.main_thread_runnable_ns * 9 / 10);
}

TEST(TracegenTest, ScrollGcPressureGcEvents) {
  Generated g = Generate("scroll_gc_pressure");
  ASSERT_NE(g.trace, nullptr);
  ExpectFramesMatchTruth(g);
  LoadedTrace& t = *g.trace;
  ASSERT_TRUE(t.Query("INCLUDE PERFETTO MODULE android.garbage_collection").ok());
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM android_garbage_collection_events WHERE pid = 8123 "
                        "AND thread_name = 'HeapTaskDaemon' AND gc_type = 'young'"),
            g.truth.gc_events);
  EXPECT_GE(g.truth.gc_events, 3);
  EXPECT_GE(JankyWithCause(g.truth, "gc"), 1);
}

TEST(TracegenTest, ScrollLockContentionMonitorContention) {
  Generated g = Generate("scroll_lock_contention");
  ASSERT_NE(g.trace, nullptr);
  ExpectFramesMatchTruth(g);
  LoadedTrace& t = *g.trace;
  ASSERT_TRUE(t.Query("INCLUDE PERFETTO MODULE android.monitor_contention").ok());
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM android_monitor_contention WHERE "
                        "blocked_thread_tid = 8123 AND blocking_thread_name = 'DefaultDispatch' "
                        "AND short_blocking_method = 'com.example.feed.FeedRepository.save'"),
            g.truth.monitor_contentions);
  EXPECT_GE(JankyWithCause(g.truth, "lock_contention"), 3);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM slice c JOIN slice p ON c.parent_id = p.id WHERE "
                        "c.name GLOB 'Lock contention on a monitor lock (owner tid: 8160)' AND "
                        "p.name GLOB 'monitor contention with owner DefaultDispatch (8160)*'"),
            g.truth.monitor_contentions);
}

TEST(TracegenTest, ScrollThermalCapsBigCores) {
  Generated g = Generate("scroll_thermal");
  ASSERT_NE(g.trace, nullptr);
  ExpectFramesMatchTruth(g);
  LoadedTrace& t = *g.trace;
  const std::string after = std::to_string(g.truth.thermal_cap_ts);
  EXPECT_EQ(QueryInt(t, "SELECT CAST(MAX(c.value) AS INT) FROM counter c JOIN cpu_counter_track k ON c.track_id = k.id "
                        "WHERE k.name = 'cpufreq' AND k.cpu >= 4 AND c.ts >= " + after),
            g.truth.thermal_cap_khz);
  EXPECT_GT(QueryInt(t, "SELECT CAST(MAX(c.value) AS INT) FROM counter c JOIN cpu_counter_track k ON c.track_id = k.id "
                        "WHERE k.name = 'cpufreq' AND k.cpu >= 4 AND c.ts < " + after),
            g.truth.thermal_cap_khz);
  EXPECT_GE(JankyWithCause(g.truth, "thermal_throttling"), 5);
  EXPECT_EQ(JankyWithCause(g.truth, "none"), 0);
}

TEST(TracegenTest, AnrMainThreadBlocked) {
  Generated g = Generate("anr_main_thread_blocked");
  ASSERT_NE(g.trace, nullptr);
  LoadedTrace& t = *g.trace;
  ASSERT_TRUE(t.Query("INCLUDE PERFETTO MODULE android.anrs").ok());
  EXPECT_EQ(QueryRows(t, "SELECT process_name, pid, anr_type FROM android_anrs"),
            std::vector<std::string>{"com.example.feed,8123,INPUT_DISPATCHING_TIMEOUT"});
  ASSERT_TRUE(t.Query("INCLUDE PERFETTO MODULE android.monitor_contention").ok());
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM android_monitor_contention WHERE blocked_thread_tid = 8123 "
                        "AND blocking_thread_tid = " + std::to_string(g.truth.anr_blocking_tid) +
                        " AND dur > 5000000000"),
            1);
  // The lock holder sits in I/O.
  EXPECT_GT(QueryInt(t, "SELECT SUM(s.dur) FROM thread_state s JOIN thread USING (utid) WHERE tid = " +
                            std::to_string(g.truth.anr_blocking_tid) + " AND s.state = 'D'"),
            5'000'000'000);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM android_logs WHERE msg GLOB 'ANR in com.example.feed*'"), 1);
}

TEST(TracegenTest, ScrollGcPressurePollsProcessMemoryAsTheHeapGrows) {
  Generated g = Generate("scroll_gc_pressure");
  ASSERT_NE(g.trace, nullptr);
  LoadedTrace& t = *g.trace;
  const GroundTruth& truth = g.truth;
  EXPECT_EQ(truth.memory_polls, 20);  // every 100 ms for 2 s
  const std::string app_rss =
      "FROM counter c JOIN process_counter_track k ON c.track_id = k.id JOIN process p USING (upid) "
      "WHERE p.pid = 8123 AND k.name = 'mem.rss'";
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) " + app_rss), truth.memory_polls);
  EXPECT_EQ(QueryInt(t, "SELECT CAST(value AS INT) " + app_rss + " ORDER BY c.ts LIMIT 1"), truth.app_rss_first_bytes);
  EXPECT_EQ(QueryInt(t, "SELECT CAST(value AS INT) " + app_rss + " ORDER BY c.ts DESC LIMIT 1"), truth.app_rss_last_bytes);
  EXPECT_EQ(QueryInt(t, "SELECT CAST(MAX(value) AS INT) " + app_rss), truth.app_rss_peak_bytes);
  EXPECT_GT(truth.app_rss_last_bytes - truth.app_rss_first_bytes, 50'000'000);
  // VmRSS is the sum of its parts at every poll of every process.
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM (SELECT k.upid, c.ts, "
                        "SUM(CASE WHEN k.name = 'mem.rss' THEN c.value ELSE -c.value END) AS diff "
                        "FROM counter c JOIN process_counter_track k ON c.track_id = k.id "
                        "WHERE k.name IN ('mem.rss', 'mem.rss.anon', 'mem.rss.file', 'mem.rss.shmem') "
                        "GROUP BY k.upid, c.ts) WHERE diff != 0"),
            0);
  // Kernel threads have no user memory to poll.
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM process_counter_track k JOIN process p USING (upid) "
                        "WHERE p.name IN ('kswapd0', 'rcu_preempt')"),
            0);
  const auto j = nlohmann::json::parse(ReadFile(g.path + ".truth.json"), nullptr, false);
  EXPECT_EQ(j["memory"]["polls"], truth.memory_polls);
  EXPECT_EQ(j["memory"]["app_rss_last_bytes"], truth.app_rss_last_bytes);
}

TEST(TracegenTest, ScrollThermalPollsTheThermalZones) {
  Generated g = Generate("scroll_thermal");
  ASSERT_NE(g.trace, nullptr);
  LoadedTrace& t = *g.trace;
  const std::string zones =
      "FROM counter c JOIN counter_track k ON c.track_id = k.id WHERE k.type = 'thermal_temperature_sys'";
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(DISTINCT k.id) " + zones), 2);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) " + zones), 2 * g.truth.thermal_samples_per_zone);
  EXPECT_EQ(QueryRows(t, "SELECT k.name, CAST(MAX(c.value) AS INT) " + zones + " GROUP BY k.id ORDER BY 2 DESC LIMIT 1"),
            std::vector<std::string>{g.truth.thermal_hottest_zone + "," + std::to_string(g.truth.thermal_hottest_c)});
  // The skin reaches the SEVERE threshold at the cap.
  EXPECT_EQ(QueryInt(t, "SELECT CAST(c.value AS INT) " + zones + " AND k.name = 'skin-therm' AND c.ts = " +
                            std::to_string(g.truth.thermal_cap_ts)),
            46);
}

TEST(TracegenTest, ScrollCpuContentionHogsRunInTheirWindow) {
  Generated g = Generate("scroll_cpu_contention");
  ASSERT_NE(g.trace, nullptr);
  LoadedTrace& t = *g.trace;
  const GroundTruth& truth = g.truth;
  ASSERT_GT(truth.cpu_hog_threads, 0);
  const std::string hogs = "FROM sched s JOIN thread t USING (utid) JOIN process p USING (upid) "
                           "WHERE p.name = '" + truth.cpu_hog_process + "' AND t.name GLOB 'MediaScan-*' AND s.dur > 0";
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(DISTINCT s.utid) " + hogs), truth.cpu_hog_threads);
  // Their CPU time falls in the window (a burst started before it closes may finish after it).
  const std::string from = std::to_string(truth.cpu_contention_from_ns);
  const std::string to = std::to_string(truth.cpu_contention_to_ns);
  const int64_t total = QueryInt(t, "SELECT SUM(s.dur) " + hogs);
  const int64_t inside = QueryInt(t, "SELECT SUM(MAX(0, MIN(s.ts + s.dur, " + to + ") - MAX(s.ts, " + from + "))) " + hogs);
  EXPECT_GT(total, 0);
  EXPECT_GE(static_cast<double>(inside), 0.95 * static_cast<double>(total));
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) " + hogs + " AND s.cpu < 4"), 0);  // big cores only
}

TEST(TracegenTest, AnrInputEventsFollowTheInputTransport) {
  Generated g = Generate("anr_main_thread_blocked");
  ASSERT_NE(g.trace, nullptr);
  LoadedTrace& t = *g.trace;
  ASSERT_EQ(g.truth.input_events.size(), 3u);
  ASSERT_TRUE(t.Query("INCLUDE PERFETTO MODULE android.input").ok());
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM android_input_events"), 3);
  for (const InputEventTruth& e : g.truth.input_events) {
    EXPECT_EQ(QueryRows(t, "SELECT dispatch_ts, receive_ts, total_latency_dur, process_name, thread_name "
                           "FROM android_input_events WHERE event_seq = '" + e.seq + "'"),
              std::vector<std::string>{std::to_string(e.dispatch_ts) + "," + std::to_string(e.receive_ts) + "," +
                                       std::to_string(e.ack_ts - e.dispatch_ts) +
                                       ",com.example.feed,om.example.feed"})
        << e.seq;
  }
  // InputDispatcher's nested slices tie each transport message to its input event id.
  EXPECT_EQ(QueryRows(t, "SELECT input_event_id FROM android_input_events WHERE event_seq = '0x3'"),
            std::vector<std::string>{"0x2f1c"});
}

TEST(TracegenTest, InterruptWakeupsAreFlaggedAsSuch) {
  Generated g = Generate("scroll_smooth", 1);
  ASSERT_NE(g.trace, nullptr);
  LoadedTrace& t = *g.trace;
  const std::string main_wakeups =
      "FROM thread_state s JOIN thread m ON m.utid = s.utid LEFT JOIN thread w ON w.utid = s.waker_utid "
      "WHERE m.tid = 8123 AND s.state = 'R' AND s.waker_utid IS NOT NULL";
  // The vsync timer wakes the main thread from an interrupt, whatever task it interrupted ...
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) " + main_wakeups + " AND s.irq_context = 1"), 50);
  // ... RenderThread wakes it (the frame state is synced) from its own context.
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) " + main_wakeups + " AND w.name = 'RenderThread' AND w.upid = m.upid "
                        "AND s.irq_context = 0"),
            50);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) " + main_wakeups + " AND w.name = 'RenderThread' AND w.upid = m.upid "
                        "AND s.irq_context = 1"),
            0);
}

TEST(TracegenTest, LargeHasMillionsOfEvents) {
  Generated g = Generate("large", 3);
  ASSERT_NE(g.trace, nullptr);
  ExpectFramesMatchTruth(g);
  EXPECT_GT(g.truth.ftrace_events, 300'000);
  EXPECT_EQ(g.truth.fps, 60);
}

TEST(TracegenTest, PlainAndCompactSchedGiveTheSameScheduling) {
  TracegenOptions o;
  o.scenario = "scroll_binder_jank";
  o.duration_s = 1;
  o.compact_sched = false;
  Generated plain = Generate(o, "plain.pftrace");
  o.compact_sched = true;
  Generated compact = Generate(o, "compact.pftrace");
  ASSERT_NE(plain.trace, nullptr);
  ASSERT_NE(compact.trace, nullptr);
  EXPECT_EQ(plain.truth.frames_janky, compact.truth.frames_janky);
  // compact_sched has no prev fields: the first switch of each cpu makes no row, so compare
  // from 20 ms in, when every cpu has switched.
  const std::string rows =
      "SELECT s.ts, s.cpu, t.tid, s.dur, s.end_state FROM sched s JOIN thread t USING (utid) "
      "WHERE s.ts > " + std::to_string(plain.truth.trace_start_ns + 20'000'000) +
      " ORDER BY s.ts, s.cpu";
  const auto a = QueryRows(*plain.trace, rows);
  const auto b = QueryRows(*compact.trace, rows);
  EXPECT_GT(a.size(), 1000u);
  EXPECT_EQ(a.size(), b.size());
  EXPECT_EQ(a, b);
}

TEST(TracegenTest, SmoothAtEveryRefreshRate) {
  for (int fps : {90, 120}) {
    TracegenOptions o;
    o.scenario = "scroll_smooth";
    o.fps = fps;
    o.duration_s = 1;
    Generated g = Generate(o, "smooth_" + std::to_string(fps) + ".pftrace");
    ASSERT_NE(g.trace, nullptr);
    EXPECT_EQ(g.truth.frames_janky, 0) << fps;
    // About one frame per vsync over the scroll (the trace's first and last ms have none).
    EXPECT_GT(g.truth.frames_total, fps * 8 / 10) << fps;
    ExpectFramesMatchTruth(g);
  }
}

TEST(TracegenTest, ManifestIsWrittenNextToTheTrace) {
  Generated g = Generate("scroll_binder_jank", 1);
  const auto j = nlohmann::json::parse(ReadFile(g.path + ".truth.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["scenario"], "scroll_binder_jank");
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["params"]["fps"], 60);
  EXPECT_EQ(j["app"]["package"], "com.example.feed");
  EXPECT_EQ(j["frames"]["janky"], g.truth.frames_janky);
  EXPECT_EQ(j["frames"]["janky_frames"].size(), g.truth.janky_frames.size());
  EXPECT_EQ(j["binder"]["injected_count"], g.truth.injected_binder.size());
  ASSERT_FALSE(j["frames"]["janky_frames"].empty());
  EXPECT_EQ(j["frames"]["janky_frames"][0]["cause"], "binder");
  EXPECT_TRUE(j.contains("tolerances"));
}

TEST(TracegenTest, PolledDataIsDeterministicToo) {
  for (const std::string scenario : {"scroll_gc_pressure", "scroll_thermal"}) {
    TracegenOptions o;
    o.scenario = scenario;
    o.duration_s = 1;
    const std::string a = TempPath("poll_a.pftrace"), b = TempPath("poll_b.pftrace");
    ASSERT_TRUE(GenerateTrace(o, a).ok());
    ASSERT_TRUE(GenerateTrace(o, b).ok());
    EXPECT_EQ(ReadFile(a), ReadFile(b)) << scenario;
    EXPECT_EQ(ReadFile(a + ".truth.json"), ReadFile(b + ".truth.json")) << scenario;
  }
}

TEST(TracegenTest, SameSeedGivesIdenticalBytes) {
  TracegenOptions o;
  o.scenario = "scroll_binder_jank";
  o.duration_s = 1;
  o.seed = 11;
  const std::string a = TempPath("det_a.pftrace"), b = TempPath("det_b.pftrace");
  ASSERT_TRUE(GenerateTrace(o, a).ok());
  ASSERT_TRUE(GenerateTrace(o, b).ok());
  EXPECT_EQ(ReadFile(a), ReadFile(b));
  EXPECT_EQ(ReadFile(a + ".truth.json"), ReadFile(b + ".truth.json"));
  o.seed = 12;
  ASSERT_TRUE(GenerateTrace(o, b).ok());
  EXPECT_NE(ReadFile(a), ReadFile(b));
}

}  // namespace
}  // namespace tw::tracegen
