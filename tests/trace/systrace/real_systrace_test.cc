// Loads every file in ../shared/traces/systrace and checks what we know about them.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/trace/systrace/systrace_test_util.h"

namespace tw::systrace_test {
namespace {

namespace fs = std::filesystem;

std::string Dir() { return std::string(TW_SHARED_DIR) + "/traces/systrace"; }

class RealSystraceTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(Dir())) GTEST_SKIP() << "no traces at " << Dir();
  }
  std::unique_ptr<LoadedTrace> LoadFile(const std::string& name) {
    auto t = LoadTraceFile(Dir() + "/" + name);
    EXPECT_TRUE(t.ok()) << name << ": " << t.status();
    return t.ok() ? std::move(*t) : nullptr;
  }
};

TEST_F(RealSystraceTest, EverySystraceFileLoads) {
  for (const auto& entry : fs::directory_iterator(Dir())) {
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    auto t = LoadTraceFile(entry.path().string());
    if (name == "catapult__atrace_procfs_dump") {  // a /proc listing, not a trace
      ASSERT_FALSE(t.ok());
      EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
      continue;
    }
    if (!t.ok() && t.status().message().find("'json' is not supported") != std::string::npos) {
      continue;  // profile_chrome's JSON: another importer's
    }
    ASSERT_TRUE(t.ok()) << t.status();
    if ((*t)->info().format == "json") continue;
    EXPECT_GT((*t)->info().packets, 0);
    // No lines were rejected in these files.
    EXPECT_EQ(Int(**t, "SELECT value FROM stats WHERE name = 'systrace_parse_failure'"), 0);
  }
}

TEST_F(RealSystraceTest, SpotCounts) {
  struct Expect {
    const char* name;
    int64_t sched, slices, counters;
  };
  for (const Expect& e : {Expect{"catapult__android_systrace.html", 11074, 5984, 1611},
                          Expect{"catapult__android_systrace.txt", 58, 0, 0},
                          Expect{"catapult__atrace_data_raw", 72, 0, 0},
                          Expect{"catapult__compressed_atrace_data.txt", 0, 480, 88},
                          Expect{"catapult__decompressed_atrace_data.txt", 0, 480, 88},
                          Expect{"catapult__counter_tracks.html", 0, 0, 1611},
                          Expect{"catapult__trivial_systrace.html", 0, 0, 4}}) {
    SCOPED_TRACE(e.name);
    auto t = LoadFile(e.name);
    ASSERT_TRUE(t);
    EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM sched"), e.sched);
    EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM slice"), e.slices);
    EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM counter"), e.counters);
  }
}

TEST_F(RealSystraceTest, SchedulingIsConsistent) {
  auto t = LoadFile("catapult__android_systrace.html");
  ASSERT_TRUE(t);
  // Slices on one cpu never overlap; a thread is never in two states at once.
  EXPECT_EQ(Int(*t,
                "SELECT COUNT(*) FROM (SELECT ts, dur, LEAD(ts) OVER (PARTITION BY cpu "
                "ORDER BY ts) AS next FROM sched) WHERE next IS NOT NULL AND "
                "(dur < 0 OR ts + dur > next)"),
            0);
  EXPECT_EQ(Int(*t,
                "SELECT COUNT(*) FROM (SELECT ts, dur, LEAD(ts) OVER (PARTITION BY utid "
                "ORDER BY ts) AS next FROM thread_state) WHERE next IS NOT NULL AND "
                "dur >= 0 AND ts + dur > next"),
            0);
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM thread_state WHERE utid = 0"), 0);
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM sched WHERE end_state IS NULL"), 2);  // one per cpu
  // The legacy file's thread names come from its lines and sched comms.
  EXPECT_EQ(Rows(*t, "SELECT name FROM thread WHERE tid = 236"), "\"SurfaceFlinger\"\n");
}

}  // namespace
}  // namespace tw::systrace_test
