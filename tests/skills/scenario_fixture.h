#pragma once
// Shared by the skills_on_scenarios_*_test files: tracegen scenarios are generated (once per
// test process and options) and loaded, skills of the shipped library are run on them, and
// small helpers read step results, findings and independent SQL over the same trace, so each
// test can hold a skill's rows against the scenario's ground truth.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/skills/skill_executor.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/trace_loader.h"
#include "tests/common/process_temp_dir.h"
#include "tools/tracegen/tracegen.h"

namespace tw::skills::scenario_testing {

struct Scenario {
  tracegen::GroundTruth truth;
  std::unique_ptr<LoadedTrace> trace;
  int64_t app_upid = -1;
  int64_t app_main_utid = -1;
};

class SkillsOnScenariosTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (library_) return;
    std::vector<Diagnostic> diagnostics;
    library_ = std::make_unique<SkillLibrary>(
        SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diagnostics));
    scenarios_ = std::make_unique<std::map<std::string, Scenario>>();
  }

  // Generates (once) and loads a scenario; `seconds` 0 is the scenario's default duration.
  Scenario& Get(const std::string& name, int fps = 60, double seconds = 0) {
    const std::string key = absl::StrCat(name, "@", fps, "hz_", seconds, "s");
    auto it = scenarios_->find(key);
    if (it != scenarios_->end()) return it->second;
    Scenario& s = (*scenarios_)[key];
    const std::string path =
        (std::filesystem::path(::tw::testing::ProcessTempDir()) / (key + ".pftrace")).string();
    tracegen::TracegenOptions o;
    o.scenario = name;
    o.seed = 5;
    o.fps = fps;
    o.duration_s = seconds;
    auto truth = tracegen::GenerateTrace(o, path);
    EXPECT_TRUE(truth.ok()) << truth.status();
    if (!truth.ok()) return s;
    s.truth = *truth;
    auto trace = LoadTraceFile(path);
    EXPECT_TRUE(trace.ok()) << trace.status();
    if (!trace.ok()) return s;
    s.trace = std::move(*trace);
    s.app_upid = QueryInt(s, absl::StrCat("SELECT upid FROM process WHERE pid = ", s.truth.app_pid));
    s.app_main_utid = QueryInt(s, absl::StrCat("SELECT utid FROM thread WHERE tid = ", s.truth.app_main_tid));
    return s;
  }

  // Runs `skill`; it must succeed (kOk).
  SkillRunResult Run(Scenario& s, const std::string& skill,
                     const std::map<std::string, std::string>& params = {}) {
    SkillRunResult r = RunAny(s, skill, params);
    EXPECT_EQ(r.outcome, SkillOutcome::kOk) << skill << ": " << r.message;
    return r;
  }
  // Runs `skill` whatever its outcome.
  SkillRunResult RunAny(Scenario& s, const std::string& skill,
                        const std::map<std::string, std::string>& params = {}) {
    TraceDatabaseRunner runner(&s.trace->db());
    SkillExecutor executor(*library_, runner);
    const Skill* found = library_->Find(skill);
    EXPECT_NE(found, nullptr) << skill;
    if (!found) return {};
    return executor.Run(*found, params);
  }

  // A top-level step's result (points into `r`: keep the result alive while using it).
  static const StepResult* Step(const SkillRunResult& r, const std::string& id) {
    for (const auto& s : r.steps) {
      if (s->step == id) return s.get();
    }
    ADD_FAILURE() << "no step " << id << " in " << r.skill;
    return nullptr;
  }
  static const SqlValue& Cell(const StepResult& r, size_t row, const std::string& column) {
    static const SqlValue kNull;
    const int c = r.ColumnIndex(column);
    EXPECT_GE(c, 0) << "no column " << column << " in " << r.step;
    return c < 0 || row >= r.rows.size() ? kNull : r.rows[row][static_cast<size_t>(c)];
  }
  static int64_t Int(const StepResult& r, size_t row, const std::string& column) {
    return Cell(r, row, column).int_value;
  }
  static double Num(const StepResult& r, size_t row, const std::string& column) {
    const SqlValue& v = Cell(r, row, column);
    return v.type == SqlValue::Type::kDouble ? v.double_value : static_cast<double>(v.int_value);
  }
  static std::string Str(const StepResult& r, size_t row, const std::string& column) {
    return Cell(r, row, column).string_value;
  }
  // The first row whose `column` is the string `value`, or -1.
  static int RowWhere(const StepResult& r, const std::string& column, const std::string& value) {
    const int c = r.ColumnIndex(column);
    for (size_t i = 0; c >= 0 && i < r.rows.size(); ++i) {
      if (r.rows[i][static_cast<size_t>(c)].string_value == value) return static_cast<int>(i);
    }
    return -1;
  }
  // Sum of a numeric column over all rows.
  static int64_t Sum(const StepResult& r, const std::string& column) {
    int64_t sum = 0;
    for (size_t i = 0; i < r.rows.size(); ++i) sum += Int(r, i, column);
    return sum;
  }
  static std::vector<const Finding*> Findings(const SkillRunResult& r, const std::string& rule) {
    std::vector<const Finding*> out;
    for (const Finding& f : r.findings) {
      if (f.rule == rule) out.push_back(&f);
    }
    return out;
  }

  // Independent SQL over the scenario's trace: the first cell of the first row (-999 if none).
  static int64_t QueryInt(Scenario& s, const std::string& sql) {
    auto r = s.trace->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status();
    if (!r.ok() || r->rows.empty() || r->rows[0].empty()) return -999;
    return r->rows[0][0].int_value;
  }

  static std::map<std::string, std::string> App(const Scenario& s) {
    return {{"upid", std::to_string(s.app_upid)}};
  }

  // Shared by every suite of the test process (generated scenarios are reused across suites).
  inline static std::unique_ptr<SkillLibrary> library_;
  inline static std::unique_ptr<std::map<std::string, Scenario>> scenarios_;
};

// The thread_state condition behind each state label the state-breakdown skills print
// (thread_state_breakdown, startup_main_thread_states), for checking their totals with SQL.
inline const std::map<std::string, std::string>& ThreadStateSqlByLabel() {
  static const auto* const kStateSql = new std::map<std::string, std::string>{
      {"Running", "state = 'Running'"},
      {"Runnable", "state = 'R'"},
      {"Runnable (preempted)", "state = 'R+'"},
      {"Sleeping", "state = 'S'"},
      {"Uninterruptible (I/O)", "state = 'D' AND io_wait = 1"},
      {"Uninterruptible", "state = 'D' AND COALESCE(io_wait, 0) != 1"}};
  return *kStateSql;
}

}  // namespace tw::skills::scenario_testing
