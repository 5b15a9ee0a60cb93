// android.auto.multiuser on the trace of Perfetto's multiuser diff test (../shared/difftests,
// skipped when absent): a switch to user 11, ended by a launcher startup and by user 10's stop,
// and what user 10's processes used meanwhile.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "libs/trace/trace_loader.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;

TEST(AndroidAutoMultiuser, SwitchTimingAndPreviousUserUsage) {
  const std::string path = std::string(TW_SHARED_DIR) +
                           "/difftests/AndroidMetrics__android_auto_multiuser_timing_table/trace.pb";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no trace at " << path;
  auto t = LoadTraceFile(path);
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_TRUE((*t)->db().Execute("INCLUDE PERFETTO MODULE android.auto.multiuser").ok());
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT event_start_user_id, event_start_time, event_end_time, event_end_name, duration
      FROM android_auto_multiuser_timing ORDER BY event_end_time)"),
            (Table{{"11", "3000000000", "3999999999", "com.android.car.carlauncher", "999999999"},
                   {"11", "3000000000", "5100000000", "finishUserStopped-10-[stopUser]",
                    "2100000000"}}));
  EXPECT_EQ(Rows((*t)->db(), R"(
      SELECT event_end_name, user_id, total_cpu_time, total_memory_usage_kb
      FROM android_auto_multiuser_timing_with_previous_user_resource_usage
      ORDER BY event_end_time)"),
            // trace_processor's android_auto_multiuser metric reports 9 ms / 2048 kB and
            // 19 ms / 3072 kB for these two switch ends.
            (Table{{"com.android.car.carlauncher", "10", "9999998", "2048"},
                   {"finishUserStopped-10-[stopUser]", "10", "19999997", "3072"}}));
}

}  // namespace
}  // namespace tw
