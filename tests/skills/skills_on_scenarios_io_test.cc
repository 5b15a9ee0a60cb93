// The I/O skills against tracegen's ground truth: scroll_subtle plants five frames whose main
// thread reads a cache file (three 16 KiB reads each: a block request, an uninterruptible I/O
// wait of 0.6 frame periods, four pages into the page cache), idle_wakeups a database thread
// that syncs its journal every 100 ms. Block requests (block_io_latency), page-cache fills
// (page_cache_fills), I/O waits per process (io_by_process) and file syncs (fsync_calls) must
// count exactly those.
#include <string>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;

class IoSkillsOnScenariosTest : public scenario_testing::SkillsOnScenariosTest {
 protected:
  static constexpr int kReadFrames = 5, kReadsPerFrame = 3, kPagesPerRead = 4;
  static constexpr int64_t kReads = kReadFrames * kReadsPerFrame;
  // scroll_subtle at 60 Hz: each read waits 0.6 of a frame period.
  static constexpr int64_t kReadNs = 1'000'000'000LL * 6 / 600;
  Scenario& Subtle() { return Get("scroll_subtle", 60, 4); }
};

TEST_F(IoSkillsOnScenariosTest, BlockIoLatencyCountsThePlantedReads) {
  Scenario& s = Subtle();
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "block_io_latency");
  const StepResult* requests = Step(r, "requests");
  ASSERT_TRUE(requests && requests->rows.size() == 1) << "one device, reads only";
  EXPECT_EQ(Str(*requests, 0, "direction"), "read");
  EXPECT_EQ(Int(*requests, 0, "requests"), kReads);
  EXPECT_EQ(Int(*requests, 0, "bytes"), kReads * 16384);
  EXPECT_NEAR(Num(*requests, 0, "max_dur"), kReadNs, 1000);
  EXPECT_EQ(Int(*requests, 0, "slow_requests"), 0);  // 10 ms is not slow storage
  EXPECT_TRUE(Findings(r, "slow_storage").empty());
  // No block I/O at all on the smooth scroll.
  EXPECT_TRUE(Step(Run(Get("scroll_smooth"), "block_io_latency"), "requests")->rows.empty());
}

TEST_F(IoSkillsOnScenariosTest, PageCacheFillsAreTheMainThreadsPages) {
  Scenario& s = Subtle();
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "page_cache_fills");
  const StepResult* fills = Step(r, "fills");
  ASSERT_TRUE(fills && fills->rows.size() == 1);
  EXPECT_EQ(Int(*fills, 0, "tid"), s.truth.app_main_tid);
  EXPECT_EQ(Int(*fills, 0, "is_main_thread"), 1);
  EXPECT_EQ(Int(*fills, 0, "pages"), kReads * kPagesPerRead);
  const auto main = Findings(r, "main_thread_faults");
  ASSERT_EQ(main.size(), 1u);
  EXPECT_EQ(main[0]->cause, "io");
}

TEST_F(IoSkillsOnScenariosTest, IoByProcessHasTheAppsWaits) {
  Scenario& s = Subtle();
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "io_by_process", {{"limit", "100"}});
  const StepResult* processes = Step(r, "processes");
  ASSERT_NE(processes, nullptr);
  const int app = RowWhere(*processes, "process_name", "com.example.feed");
  ASSERT_GE(app, 0);
  EXPECT_EQ(Int(*processes, app, "threads"), 1);
  EXPECT_EQ(Int(*processes, app, "waits"), kReads);
  EXPECT_NEAR(Num(*processes, app, "io_dur"), kReads * kReadNs, kReads * 1000);
  // The same from thread_state: the app's uninterruptible I/O waits.
  EXPECT_EQ(Int(*processes, app, "waits"),
            QueryInt(s, "SELECT COUNT(*) FROM thread_state ts JOIN thread t USING (utid) WHERE t.upid = " +
                            std::to_string(s.app_upid) + " AND ts.state = 'D' AND ts.io_wait = 1"));
}

TEST_F(IoSkillsOnScenariosTest, FsyncCallsCountTheDatabaseThreadsSyncs) {
  Scenario& s = Get("idle_wakeups");
  ASSERT_NE(s.trace, nullptr);
  ASSERT_GT(s.truth.fsyncs, 10);
  const SkillRunResult r = Run(s, "fsync_calls");
  const StepResult* syncs = Step(r, "syncs");
  ASSERT_TRUE(syncs && syncs->rows.size() == 1);
  EXPECT_EQ(Str(*syncs, 0, "thread_name"), s.truth.fsync_thread);
  EXPECT_EQ(Str(*syncs, 0, "process_name"), s.truth.wakeup_process);
  EXPECT_EQ(Int(*syncs, 0, "is_main_thread"), 0);
  EXPECT_EQ(Int(*syncs, 0, "syncs"), s.truth.fsyncs);
  EXPECT_GE(Int(*syncs, 0, "max_dur"), 4'000'000);  // the planted 4 ms wait, and the exit after it
  // Not the main thread: no main-thread fsync finding. And no syncs on the scroll.
  EXPECT_TRUE(Findings(r, "main_thread_fsync").empty());
  EXPECT_TRUE(Step(Run(Subtle(), "fsync_calls"), "syncs")->rows.empty());
}

}  // namespace
}  // namespace tw::skills
