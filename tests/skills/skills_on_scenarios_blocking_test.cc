// The blocking skills against tracegen's ground truth: who ended the main thread's waits
// (blocking_chain: the system_server binder thread that served each injected call, the worker
// that held the lock; never the task an interrupt happened to interrupt), the binder servers
// the app waited on (binder_by_server) and the lock waits with their owner, each counted once
// (lock_contention).
#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;

class BlockingSkillsOnScenariosTest : public scenario_testing::SkillsOnScenariosTest {};

TEST_F(BlockingSkillsOnScenariosTest, BlockingChainNamesTheBinderThreadThatEndedEachCall) {
  Scenario& s = Get("scroll_binder_jank");
  ASSERT_NE(s.trace, nullptr);
  ASSERT_FALSE(s.truth.injected_binder.empty());
  const SkillRunResult r = Run(s, "blocking_chain", {{"upid", std::to_string(s.app_upid)}, {"limit", "200"}});
  const StepResult* waits = Step(r, "waits");
  ASSERT_NE(waits, nullptr);
  int64_t served_wait = 0;
  std::set<std::string> servers;  // the binder threads that served the calls
  for (const auto& call : s.truth.injected_binder) {
    int matched = 0;
    for (size_t i = 0; i < waits->rows.size(); ++i) {
      if (std::llabs(Int(*waits, i, "ts") - call.ts) > 10'000) continue;
      ++matched;
      EXPECT_LE(std::llabs(Int(*waits, i, "dur") - call.dur), 100'000) << call.ts;
      EXPECT_EQ(Int(*waits, i, "woken_by_interrupt"), 0) << call.ts;
      EXPECT_EQ(Int(*waits, i, "waker_tid"), call.server_tid) << call.ts;
      EXPECT_EQ(Str(*waits, i, "waker_process"), call.server_process) << call.ts;
      served_wait += Int(*waits, i, "dur");
      servers.insert(Str(*waits, i, "waker_thread"));
    }
    EXPECT_EQ(matched, 1) << "the wait of the call at " << call.ts;
  }
  // Interrupt wakeups (the vsync timer, ...) name no thread.
  int interrupts = 0;
  for (size_t i = 0; i < waits->rows.size(); ++i) {
    if (Int(*waits, i, "woken_by_interrupt") != 1) continue;
    ++interrupts;
    EXPECT_TRUE(Cell(*waits, i, "waker_thread").is_null());
  }
  EXPECT_GT(interrupts, 0);
  // The long waits it reports are the binder calls, each ended by the server's binder thread.
  const auto long_waits = Findings(r, "long_wait");
  EXPECT_FALSE(long_waits.empty());
  for (const Finding* f : long_waits) {
    for (const auto& [k, v] : f->evidence_fields) {
      if (k == "waker_thread") {
        EXPECT_EQ(v.string_value.rfind("binder:1432_", 0), 0u) << f->title;
      }
    }
  }
  const StepResult* by_waker = Step(r, "by_waker");
  ASSERT_NE(by_waker, nullptr);
  int64_t wakeups = 0, total_wait = 0;
  for (const std::string& server : servers) {
    const int row = RowWhere(*by_waker, "waker_thread", server);
    ASSERT_GE(row, 0) << server;
    wakeups += Int(*by_waker, static_cast<size_t>(row), "wakeups");
    total_wait += Int(*by_waker, static_cast<size_t>(row), "total_wait");
  }
  EXPECT_EQ(wakeups, static_cast<int64_t>(s.truth.injected_binder.size()));
  EXPECT_EQ(total_wait, served_wait);
  const int irq = RowWhere(*by_waker, "waker_thread", "(interrupt)");
  ASSERT_GE(irq, 0);
  EXPECT_TRUE(Cell(*by_waker, static_cast<size_t>(irq), "waker_process").is_null());
}

TEST_F(BlockingSkillsOnScenariosTest, BlockingChainNamesTheLockOwner) {
  Scenario& s = Get("scroll_lock_contention");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "blocking_chain", {{"upid", std::to_string(s.app_upid)}, {"limit", "200"}});
  const StepResult* by_waker = Step(r, "by_waker");
  ASSERT_NE(by_waker, nullptr);
  const int owner = RowWhere(*by_waker, "waker_thread", "DefaultDispatch");
  ASSERT_GE(owner, 0);
  // Each contention ends when the worker releases the lock and wakes the main thread.
  EXPECT_EQ(Int(*by_waker, static_cast<size_t>(owner), "wakeups"), s.truth.monitor_contentions);
  EXPECT_EQ(Str(*by_waker, static_cast<size_t>(owner), "waker_process"), s.truth.app_package);
}

TEST_F(BlockingSkillsOnScenariosTest, BinderByServerGroupsTheInjectedCalls) {
  Scenario& s = Get("scroll_binder_jank");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "binder_by_server", App(s));
  const StepResult* servers = Step(r, "servers");
  ASSERT_NE(servers, nullptr);
  // The app's only synchronous calls are the injected ones; RenderThread's oneway buffer
  // transactions to SurfaceFlinger make no client wait and are not listed.
  ASSERT_EQ(servers->rows.size(), 1u);
  const auto& calls = s.truth.injected_binder;
  EXPECT_EQ(Str(*servers, 0, "server_process"), calls.front().server_process);
  EXPECT_EQ(Str(*servers, 0, "method"), calls.front().aidl);
  EXPECT_EQ(Int(*servers, 0, "calls"), static_cast<int64_t>(calls.size()));
  EXPECT_EQ(Int(*servers, 0, "main_thread_calls"), static_cast<int64_t>(calls.size()));
  int64_t total = 0, longest = 0;
  for (const auto& c : calls) {
    total += c.dur;
    longest = std::max(longest, c.dur);
  }
  EXPECT_LE(std::llabs(Int(*servers, 0, "total_client_dur") - total), 100'000 * static_cast<int64_t>(calls.size()));
  EXPECT_LE(std::llabs(Int(*servers, 0, "max_client_dur") - longest), 100'000);
  // The server ran (almost) all the time the client waited.
  EXPECT_LE(Int(*servers, 0, "total_server_dur"), Int(*servers, 0, "total_client_dur"));
  EXPECT_GE(Num(*servers, 0, "total_server_dur"), 0.9 * Num(*servers, 0, "total_client_dur"));
}

TEST_F(BlockingSkillsOnScenariosTest, LockContentionCountsEachWaitOnceWithItsOwner) {
  Scenario& s = Get("scroll_lock_contention");
  ASSERT_NE(s.trace, nullptr);
  ASSERT_TRUE(s.trace->Query("INCLUDE PERFETTO MODULE android.monitor_contention").ok());
  const SkillRunResult r = Run(s, "lock_contention", App(s));
  const StepResult* waits = Step(r, "waits");
  ASSERT_TRUE(waits && waits->rows.size() == 1);
  EXPECT_EQ(Int(*waits, 0, "utid"), s.app_main_utid);
  EXPECT_EQ(Int(*waits, 0, "waits"), s.truth.monitor_contentions);
  EXPECT_EQ(Str(*waits, 0, "owners"), "DefaultDispatch");
  EXPECT_EQ(Int(*waits, 0, "total_dur"),
            QueryInt(s, "SELECT SUM(dur) FROM android_monitor_contention WHERE blocked_thread_tid = " +
                            std::to_string(s.truth.app_main_tid)));
  EXPECT_EQ(Findings(r, "main_thread_locks").size(), 1u);

  // The ANR: one wait of over five seconds, on the I/O thread that held the database lock.
  Scenario& anr = Get("anr_main_thread_blocked");
  ASSERT_NE(anr.trace, nullptr);
  const SkillRunResult a = Run(anr, "lock_contention", App(anr));
  const StepResult* w = Step(a, "waits");
  ASSERT_TRUE(w && w->rows.size() == 1);
  EXPECT_EQ(Int(*w, 0, "waits"), anr.truth.monitor_contentions);
  EXPECT_EQ(Str(*w, 0, "owners"), "pool-3-thread-1");
  EXPECT_GT(Int(*w, 0, "total_dur"), 5'000'000'000);
  EXPECT_LT(Int(*w, 0, "total_dur"), anr.truth.trace_end_ns - anr.truth.trace_start_ns);
}

}  // namespace
}  // namespace tw::skills
