// The Android modules on the real traces in ../shared/traces/perfetto (skipped when absent):
// the warm startup the issue names, and consistency checks over every trace.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

namespace fs = std::filesystem;
using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

std::string TracesDir() { return std::string(TW_SHARED_DIR) + "/traces/perfetto"; }

std::unique_ptr<LoadedTrace> LoadOrSkip(const std::string& path) {
  auto t = LoadTraceFile(path);
  EXPECT_TRUE(t.ok()) << path << ": " << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

int64_t Int(const std::string& s) { return std::strtoll(s.c_str(), nullptr, 10); }

constexpr char kWarmStartup[] = "/perfetto-skills__api32_startup_warm.perfetto-trace";

TEST(RealAndroidTraces, WarmStartupOfTheMacrobenchmarkTarget) {
  const std::string path = TracesDir() + kWarmStartup;
  if (!fs::exists(path)) GTEST_SKIP() << "no trace at " << path;
  auto t = LoadOrSkip(path);
  ASSERT_NE(t, nullptr);
  const Table startups = Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.startup.startups;
      SELECT package, startup_type, dur FROM android_startups)");
  ASSERT_EQ(startups.size(), 1u);
  EXPECT_EQ(startups[0][0], "androidx.benchmark.integration.macrobenchmark.target");
  EXPECT_EQ(startups[0][1], "warm");
  // trace_processor reports about 156.5 ms for this launch.
  EXPECT_NEAR(static_cast<double>(Int(startups[0][2])), 156.5e6, 1e6);

  // The launched app's frames: from the frame timeline, and joined with doFrame/DrawFrame.
  EXPECT_GT(Int(Scalar(t->db(), R"(SELECT COUNT(*) FROM actual_frame_timeline_slice AS a
      JOIN process AS p USING (upid)
      WHERE p.name = 'androidx.benchmark.integration.macrobenchmark.target')")), 0);
  EXPECT_GT(Int(Scalar(t->db(), R"(INCLUDE PERFETTO MODULE android.frames.timeline;
      SELECT COUNT(*) FROM android_frames
      WHERE process_name = 'androidx.benchmark.integration.macrobenchmark.target'
        AND actual_frame_timeline_id IS NOT NULL)")), 0);

  // TTID: the first frame ends inside the launch window here.
  const Table ttd = Rows(t->db(), R"(INCLUDE PERFETTO MODULE android.startup.time_to_display;
      SELECT time_to_initial_display FROM android_startup_time_to_display)");
  ASSERT_EQ(ttd.size(), 1u);
  EXPECT_GT(Int(ttd[0][0]), 100000000);
  EXPECT_LT(Int(ttd[0][0]), 200000000);
}

// Over every real trace: what the modules return agrees with the tables they read.
TEST(RealAndroidTraces, ModulesAgreeWithTheirTables) {
  if (!fs::exists(TracesDir())) GTEST_SKIP() << "no real traces at " << TracesDir();
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(TracesDir())) {
    if (!entry.is_regular_file()) continue;
    SCOPED_TRACE(entry.path().string());
    auto t = LoadOrSkip(entry.path().string());
    if (t == nullptr) continue;
    ++checked;
    TraceDatabase& db = t->db();
    // Every frame's actual timeline slice exists, belongs to the frame's process and carries
    // the frame's token.
    EXPECT_EQ(Scalar(db, R"(INCLUDE PERFETTO MODULE android.frames.timeline;
        SELECT COUNT(*) FROM android_frames AS f
        LEFT JOIN actual_frame_timeline_slice AS a ON a.id = f.actual_frame_timeline_id
        WHERE f.actual_frame_timeline_id IS NOT NULL
          AND (a.id IS NULL OR a.upid != f.upid OR CAST(a.name AS INT) != f.frame_id))"),
              "0");
    // Janky frames per android_frames never exceed janky actual timeline slices.
    EXPECT_LE(Int(Scalar(db, R"(INCLUDE PERFETTO MODULE android.frames.timeline;
        SELECT COUNT(DISTINCT f.actual_frame_timeline_id) FROM android_frames AS f
        JOIN actual_frame_timeline_slice AS a ON a.id = f.actual_frame_timeline_id
        WHERE a.jank_type NOT IN ('None', 'Unspecified'))")),
              Int(Scalar(db, R"(SELECT COUNT(*) FROM actual_frame_timeline_slice
                                WHERE jank_type NOT IN ('None', 'Unspecified'))")));
    // Synchronous binder transactions: the reply runs inside the call, on another thread.
    EXPECT_EQ(Scalar(db, R"(INCLUDE PERFETTO MODULE android.binder;
        SELECT COUNT(*) FROM android_binder_txns
        WHERE is_sync AND (server_ts < client_ts
                           OR server_ts + server_dur > client_ts + client_dur
                           OR server_utid = client_utid))"),
              "0");
    // Every finished synchronous call that got a reply is in android_binder_txns.
    EXPECT_EQ(Scalar(db, R"(INCLUDE PERFETTO MODULE android.binder;
        SELECT COUNT(*) FROM slice AS s JOIN flow AS f ON f.slice_out = s.id
        JOIN slice AS r ON r.id = f.slice_in AND r.name = 'binder reply'
        WHERE s.name = 'binder transaction' AND s.dur >= r.dur AND r.dur >= 0
          AND s.id NOT IN (SELECT binder_txn_id FROM android_binder_txns))"),
              "0");
    // Launches lie inside the trace and name a package.
    EXPECT_EQ(Scalar(db, R"(INCLUDE PERFETTO MODULE android.startup.startups;
        SELECT COUNT(*) FROM android_startups
        WHERE dur <= 0 OR package IS NULL OR ts < trace_start() OR ts_end > trace_end())"),
              "0");
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace tw
