// Every Chrome JSON trace in ../shared/traces/chrome_json loads (plain or gzip), with spot
// checks on a few whose content is known. Skipped when ../shared is absent.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "libs/trace/trace_loader.h"
#include "tests/trace/json/json_test_util.h"

#ifndef TW_SHARED_DIR
#define TW_SHARED_DIR "../shared"
#endif

namespace tw {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(TW_SHARED_DIR) / "traces" / "chrome_json";

// trace_processor's json_tokenizer_failure count for a file, from its oracle answers (0 when
// the oracle does not list it): some real files hold events it cannot read (e.g. V8 profile
// chunks of a profile that never started).
int64_t OracleTokenizerFailures(const std::string& name) {
  std::ifstream in(fs::path(TW_SHARED_DIR) / "oracle" / name / "09-stats.csv");
  const std::string prefix = "\"json_tokenizer_failure\",";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    return std::stoll(line.substr(line.rfind(',') + 1));
  }
  return 0;
}

std::unique_ptr<LoadedTrace> LoadFile(const std::string& name) {
  auto t = LoadTraceFile((kDir / name).string());
  EXPECT_TRUE(t.ok()) << name << ": " << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

TEST(JsonRealTracesTest, EveryFileLoadsWithRows) {
  if (!fs::is_directory(kDir)) GTEST_SKIP() << kDir << " not found (../shared absent)";
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kDir)) {
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    auto t = LoadFile(name);
    if (!t) continue;
    ++files;
    EXPECT_EQ(t->info().format, "json");
    // Some files hold only object snapshots ('O'/'D') and names ('M'): every event still ties
    // its thread to its process.
    const int64_t rows = json_test::Int(
        *t, "SELECT (SELECT COUNT(*) FROM slice) + (SELECT COUNT(*) FROM counter) + "
            "(SELECT COUNT(*) FROM sched) + (SELECT COUNT(*) FROM thread_state) + "
            "(SELECT COUNT(*) FROM thread WHERE tid != 0 AND upid IS NOT NULL)");
    EXPECT_GT(rows, 0);
    EXPECT_EQ(json_test::Stat(*t, "json_tokenizer_failure"), OracleTokenizerFailures(name));
    // A structurally damaged or truncated file would say so.
    EXPECT_EQ(json_test::Stat(*t, "trace_truncated"), 0);
  }
  EXPECT_GE(files, 20);
}

TEST(JsonRealTracesTest, SimpleTraceSpotCheck) {
  if (!fs::is_directory(kDir)) GTEST_SKIP() << kDir << " not found (../shared absent)";
  auto t = LoadFile("catapult__simple_trace.json");
  ASSERT_TRUE(t);
  // Complete and begin/end slices land on thread tracks of named threads.
  EXPECT_GT(json_test::Int(*t, "SELECT COUNT(*) FROM slice JOIN thread_track tt "
                               "ON slice.track_id = tt.id"),
            0);
  EXPECT_EQ(json_test::Stat(*t, "json_tokenizer_failure"), 0);
}

TEST(JsonRealTracesTest, NestableAsyncSpotCheck) {
  if (!fs::is_directory(kDir)) GTEST_SKIP() << kDir << " not found (../shared absent)";
  auto t = LoadFile("catapult__nestable_async.json");
  ASSERT_TRUE(t);
  // Nestable async slices live on their own (non-thread) tracks and nest there.
  EXPECT_GT(json_test::Int(*t, "SELECT COUNT(*) FROM slice WHERE depth > 0 AND track_id NOT IN "
                               "(SELECT id FROM thread_track)"),
            0);
}

}  // namespace
}  // namespace tw
