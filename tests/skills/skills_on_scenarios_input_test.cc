// input_latency against tracegen's ground truth: the ANR scenario's taps, followed through
// InputDispatcher and the app, have exactly the dispatch, handling and total latencies the
// simulation recorded, and the slowest is the tap whose handler waited on the lock.
#include <algorithm>
#include <string>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;
using tracegen::InputEventTruth;

class InputSkillsOnScenariosTest : public scenario_testing::SkillsOnScenariosTest {};

TEST_F(InputSkillsOnScenariosTest, InputLatencyIsWhatTheSimulationRecorded) {
  Scenario& s = Get("anr_main_thread_blocked");
  ASSERT_NE(s.trace, nullptr);
  const auto& events = s.truth.input_events;
  ASSERT_GE(events.size(), 2u);
  const InputEventTruth& slowest = *std::max_element(
      events.begin(), events.end(), [](const InputEventTruth& a, const InputEventTruth& b) {
        return a.ack_ts - a.dispatch_ts < b.ack_ts - b.dispatch_ts;
      });

  const SkillRunResult r = Run(s, "input_latency", App(s));
  const StepResult* per_process = Step(r, "per_process");
  ASSERT_TRUE(per_process && per_process->rows.size() == 1);
  EXPECT_EQ(Str(*per_process, 0, "process_name"), s.truth.app_package);
  EXPECT_EQ(Str(*per_process, 0, "event_type"), "MOTION");
  EXPECT_EQ(Int(*per_process, 0, "events"), static_cast<int64_t>(events.size()));
  EXPECT_EQ(Int(*per_process, 0, "max_total"), slowest.ack_ts - slowest.dispatch_ts);

  const StepResult* rows = Step(r, "slowest");
  ASSERT_TRUE(rows && rows->rows.size() == events.size());
  EXPECT_EQ(Str(*rows, 0, "event_seq"), slowest.seq);
  for (const InputEventTruth& e : events) {
    SCOPED_TRACE("seq " + e.seq);
    const int i = RowWhere(*rows, "event_seq", e.seq);
    ASSERT_GE(i, 0);
    const size_t row = static_cast<size_t>(i);
    EXPECT_EQ(Int(*rows, row, "dispatch_latency_dur"), e.receive_ts - e.dispatch_ts);
    EXPECT_EQ(Int(*rows, row, "handling_latency_dur"), e.finish_ts - e.receive_ts);
    EXPECT_EQ(Int(*rows, row, "total_latency_ns"), e.ack_ts - e.dispatch_ts);
    EXPECT_EQ(Int(*rows, row, "ts"), e.receive_ts);
    EXPECT_EQ(Int(*rows, row, "end_ts"), e.finish_ts);
    EXPECT_EQ(Int(*rows, row, "utid"), s.app_main_utid);  // handled on the main thread
  }
  // The blocked tap waited for the lock for over five seconds.
  EXPECT_GT(slowest.finish_ts - slowest.receive_ts, 5'000'000'000);
  EXPECT_EQ(Findings(r, "slow_input").size(), 1u);

  // A scroll without input events cannot support the skill, and says precisely why.
  const SkillRunResult none = RunAny(Get("scroll_smooth"), "input_latency");
  EXPECT_EQ(none.outcome, SkillOutcome::kNotSupported);
  EXPECT_EQ(none.message,
            "not supported by this trace: skill 'input_latency' needs data in android_input_events, "
            "which is empty in this trace");
}

}  // namespace
}  // namespace tw::skills
