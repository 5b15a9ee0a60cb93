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

namespace tw::tracegen {
namespace {

std::string TempPath(const std::string& name) { return ::testing::TempDir() + "/" + name; }

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
  EXPECT_EQ(Scenarios().size(), 12u);
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
