// The startup breakdown skills against tracegen's ground truth: the phases of a cold, a slow
// cold and a warm start come in launch order and, with the time outside them, add up to the
// startup (startup_phases); the main thread's states during the startup agree with the
// thread_state table and hold the injected I/O (startup_main_thread_states); and the slow reason
// is I/O exactly where I/O was injected (startup_slow_reasons).
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/skills/scenario_fixture.h"

namespace tw::skills {
namespace {

using scenario_testing::Scenario;

class StartupSkillsOnScenariosTest : public scenario_testing::SkillsOnScenariosTest {
 protected:
  static std::vector<const Finding*> Own(const SkillRunResult& r, const std::string& rule) {
    std::vector<const Finding*> out;
    for (const Finding* f : Findings(r, rule)) {
      if (f->skill == r.skill) out.push_back(f);
    }
    return out;
  }
  static std::string Field(const Finding& f, const std::string& name) {
    for (const auto& [k, v] : f.evidence_fields) {
      if (k == name) return v.string_value;
    }
    return "";
  }
};

TEST_F(StartupSkillsOnScenariosTest, StartupPhasesComeInLaunchOrderAndAddUpToTheStartup) {
  for (const std::string name : {"startup_cold", "startup_cold_slow_io", "startup_warm"}) {
    SCOPED_TRACE(name);
    Scenario& s = Get(name);
    ASSERT_NE(s.trace, nullptr);
    const SkillRunResult r = Run(s, "startup_phases");
    const StepResult* startup = Step(r, "startup");
    ASSERT_TRUE(startup && startup->rows.size() == 1);
    const int64_t dur = Int(*startup, 0, "dur");
    EXPECT_LE(std::llabs(dur - s.truth.startup_dur), 1'000'000);
    const StepResult* phases = Step(r, "phases");
    ASSERT_NE(phases, nullptr);

    std::vector<std::string> order;
    int64_t top_level = 0, last_ts = 0;
    for (size_t i = 0; i < phases->rows.size(); ++i) {
      const std::string phase = Str(*phases, i, "phase");
      if (Str(*phases, i, "level") != "phase") continue;
      top_level += Int(*phases, i, "dur");
      if (phase == "outside phases") continue;
      order.push_back(phase);
      EXPECT_GE(Int(*phases, i, "first_ts"), Int(*startup, 0, "ts")) << phase;
      EXPECT_GT(Int(*phases, i, "first_ts"), last_ts) << phase;
      last_ts = Int(*phases, i, "first_ts");
    }
    // Top-level phases do not overlap: with the rest they are the startup, to the ns.
    EXPECT_EQ(top_level, dur);
    std::vector<std::string> expected = {"activityStart", "activityResume", "first frames (doFrame)"};
    if (s.truth.startup_type == "cold") expected.insert(expected.begin(), "bindApplication");
    EXPECT_EQ(order, expected);

    // Class loading reads are parts of bindApplication, in cold starts only.
    const int dex = RowWhere(*phases, "phase", "dex loading");
    EXPECT_EQ(dex >= 0, s.truth.startup_type == "cold");
    if (dex >= 0) {
      EXPECT_EQ(Str(*phases, static_cast<size_t>(dex), "level"), "part");
      EXPECT_GE(Int(*phases, static_cast<size_t>(dex), "dur"), s.truth.startup_main_thread_d_state_ns);
    }
  }
}

TEST_F(StartupSkillsOnScenariosTest, StartupMainThreadStatesHoldTheInjectedIo) {
  Scenario& s = Get("startup_cold_slow_io");
  ASSERT_NE(s.trace, nullptr);
  const SkillRunResult r = Run(s, "startup_main_thread_states");
  const StepResult* startup = Step(r, "startup");
  const StepResult* states = Step(r, "states");
  ASSERT_TRUE(startup && startup->rows.size() == 1 && states);
  const std::string ts = std::to_string(Int(*startup, 0, "ts"));
  const std::string te = std::to_string(Int(*startup, 0, "ts_end"));
  const int io = RowWhere(*states, "state", "Uninterruptible (I/O)");
  ASSERT_GE(io, 0);
  EXPECT_NEAR(Num(*states, static_cast<size_t>(io), "dur"),
              static_cast<double>(s.truth.startup_main_thread_d_state_ns), 10'000.0);
  // Every state's time in the window, as the thread_state table has it.
  const std::map<std::string, std::string>& kStateSql = scenario_testing::ThreadStateSqlByLabel();
  for (size_t i = 0; i < states->rows.size(); ++i) {
    const std::string state = Str(*states, i, "state");
    ASSERT_TRUE(kStateSql.count(state)) << state;
    EXPECT_EQ(Int(*states, i, "dur"),
              QueryInt(s, "SELECT SUM(MIN(ts + dur, " + te + ") - MAX(ts, " + ts + ")) FROM thread_state "
                          "WHERE dur > 0 AND ts < " + te + " AND ts + dur > " + ts + " AND utid = " +
                          std::to_string(s.app_main_utid) + " AND " + kStateSql.at(state)))
        << state;
  }
  EXPECT_EQ(Findings(r, "io_heavy").size(), 1u);
}

TEST_F(StartupSkillsOnScenariosTest, StartupSlowReasonsNameIoWhereItWasInjectedAndOnlyThere) {
  Scenario& io = Get("startup_cold_slow_io");
  ASSERT_NE(io.trace, nullptr);
  const SkillRunResult slow = Run(io, "startup_slow_reasons");
  bool io_named = false;
  for (const Finding* f : Own(slow, "blocked")) {
    if (Field(*f, "cause") != "io") continue;
    io_named = true;
    for (const auto& [k, v] : f->evidence_fields) {
      if (k == "total_dur") {
        EXPECT_NEAR(static_cast<double>(v.int_value),
                    static_cast<double>(io.truth.startup_main_thread_d_state_ns), 10'000.0);
      }
    }
  }
  EXPECT_TRUE(io_named);
  EXPECT_TRUE(Own(slow, "busy").empty()) << "a startup blocked in I/O is not busy";

  // Without injected I/O nothing blocks the main thread for long: the work itself is the cost
  // exactly when the main thread ran for most of the startup.
  for (const std::string name : {"startup_cold", "startup_warm"}) {
    SCOPED_TRACE(name);
    Scenario& s = Get(name);
    ASSERT_NE(s.trace, nullptr);
    const SkillRunResult r = Run(s, "startup_slow_reasons");
    EXPECT_TRUE(Own(r, "blocked").empty());
    const StepResult* states = Step(r, "states");
    ASSERT_NE(states, nullptr);
    const int running = RowWhere(*states, "state", "Running");
    ASSERT_GE(running, 0);
    const bool busy = Num(*states, static_cast<size_t>(running), "pct") >= 60;
    EXPECT_EQ(Own(r, "busy").size(), busy ? 1u : 0u);
  }
}

}  // namespace
}  // namespace tw::skills
