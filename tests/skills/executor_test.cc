// The executor over a real trace database: a synthetic scheduling trace (tools/synth) imported
// by the engine, so every step runs real SQL on real rows. Expected values are computed with
// independent SQL on the same database.

#include "libs/skills/skill_executor.h"

#include <memory>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/trace_loader.h"
#include "tools/synth/sched_trace_writer.h"
#include "tests/common/process_temp_dir.h"

namespace tw::skills {
namespace {

using ::testing::HasSubstr;

class SkillExecutorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    synth::SchedTraceOptions options;
    options.cpus = 4;
    options.duration_ns = 500'000'000;
    options.processes = 6;
    options.threads = 30;
    const std::string path = ::tw::testing::ProcessTempDir() + "/skills_executor_sched.pftrace";
    ASSERT_TRUE(synth::WriteSyntheticSchedTrace(options, path).ok());
    auto trace = LoadTraceFile(path);
    ASSERT_TRUE(trace.ok()) << trace.status();
    trace_ = trace->release();
  }
  static void TearDownTestSuite() {
    delete trace_;
    trace_ = nullptr;
  }

  void Add(const std::string& yaml) {
    LoadedSkill loaded = ParseSkillYaml(yaml, "t.skill.yaml");
    for (const auto& d : loaded.diagnostics) ADD_FAILURE() << d.ToString();
    ASSERT_TRUE(loaded.skill);
    std::vector<Diagnostic> diags;
    library_.Add(*loaded.skill, &diags);
  }

  SkillRunResult Run(const std::string& name, const std::map<std::string, std::string>& params = {}) {
    TraceDatabaseRunner runner(&trace_->db());
    SkillExecutor executor(library_, runner);
    events_.clear();
    const Skill* skill = library_.Find(name);
    EXPECT_NE(skill, nullptr);
    return executor.Run(*skill, params, [this](const SkillEvent& e) {
      events_.push_back(absl::StrCat(e.depth, ":", SkillEventKindName(e.kind),
                                     e.step.empty() ? "" : absl::StrCat(":", e.step)));
    });
  }

  int64_t Scalar(const std::string& sql) {
    auto r = trace_->db().Execute(sql);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() && !r->rows.empty() ? r->rows[0][0].int_value : -1;
  }

  static LoadedTrace* trace_;
  SkillLibrary library_;
  std::vector<std::string> events_;
};
LoadedTrace* SkillExecutorTest::trace_ = nullptr;

constexpr char kHeader[] = "version: '1'\ncategory: test\ndescription: d\n";

TEST_F(SkillExecutorTest, SqlStepsBindInputsAndCarryProvenance) {
  const int64_t busiest = Scalar("SELECT utid FROM sched WHERE utid != 0 GROUP BY utid ORDER BY SUM(dur) DESC LIMIT 1");
  const int64_t slices = Scalar(absl::StrCat("SELECT COUNT(*) FROM sched WHERE utid = ", busiest));
  ASSERT_GT(slices, 0);
  Add(absl::StrCat("name: by_thread\n", kHeader, R"yaml(inputs:
  - {name: utid, type: int, required: true}
  - {name: min_dur, type: duration_ns, default: 0}
requires: {tables: [sched]}
steps:
  - id: slices
    sql: SELECT ts, dur, cpu FROM sched WHERE utid = :utid AND dur >= :min_dur ORDER BY ts
    max_rows: 100000
    display:
      title: Slices
      columns: [{name: dur, type: duration_ns}]
  - id: total
    sql: SELECT COUNT(*) AS n, :label AS label
    params: {label: "inputs.utid * 2 + 0.5"}
)yaml"));
  SkillRunResult r = Run("by_thread", {{"utid", absl::StrCat(busiest)}});
  ASSERT_EQ(r.outcome, SkillOutcome::kOk) << r.message;
  ASSERT_EQ(r.steps.size(), 2u);
  const StepResult& s = *r.steps[0];
  EXPECT_EQ(static_cast<int64_t>(s.rows.size()), slices);
  EXPECT_EQ(s.columns[1].type, ColumnType::kDurationNs);
  EXPECT_EQ(s.columns[2].type, ColumnType::kNumber) << "inferred";
  EXPECT_EQ(s.title, "Slices");
  EXPECT_THAT(s.sql, HasSubstr("WHERE utid = :utid"));
  ASSERT_EQ(s.parameters.size(), 2u);
  EXPECT_EQ(s.parameters[0].first, "utid");
  EXPECT_EQ(s.parameters[0].second.int_value, busiest);
  EXPECT_EQ(s.parameters[1].second.int_value, 0) << "default";
  EXPECT_THAT(s.artifact_id, ::testing::StartsWith("by_thread.slices-"));
  EXPECT_GT(s.elapsed_ns, 0);
  EXPECT_EQ(r.steps[1]->rows[0][1].double_value, busiest * 2 + 0.5);
  EXPECT_THAT(events_, ::testing::ElementsAre("0:skill_started", "0:step_started:slices",
                                              "0:step_completed:slices", "0:step_started:total",
                                              "0:step_completed:total", "0:skill_completed"));
  // Same skill, same trace: the same artifact ids.
  SkillRunResult again = Run("by_thread", {{"utid", absl::StrCat(busiest)}});
  EXPECT_EQ(again.steps[0]->artifact_id, s.artifact_id);
}

TEST_F(SkillExecutorTest, ParametersAreNeverSpliced) {
  Add(absl::StrCat("name: by_name\n", kHeader, R"yaml(inputs:
  - {name: name, type: string, required: true}
steps:
  - id: threads
    sql: SELECT utid, name FROM thread WHERE name = :name
)yaml"));
  const int64_t threads = Scalar("SELECT COUNT(*) FROM thread");
  SkillRunResult r = Run("by_name", {{"name", "x' OR '1'='1"}});
  ASSERT_EQ(r.outcome, SkillOutcome::kOk) << r.message;
  EXPECT_TRUE(r.steps[0]->rows.empty()) << "the quote is data, not SQL";
  r = Run("by_name", {{"name", "x'; DROP TABLE thread; --"}});
  ASSERT_EQ(r.outcome, SkillOutcome::kOk) << r.message;
  EXPECT_TRUE(r.steps[0]->rows.empty());
  EXPECT_EQ(Scalar("SELECT COUNT(*) FROM thread"), threads);
}

TEST_F(SkillExecutorTest, InputsAreTypedAndRequired) {
  Add(absl::StrCat("name: typed\n", kHeader, R"yaml(inputs:
  - {name: utid, type: int, required: true}
  - {name: mode, type: enum, values: [a, b], default: a}
steps:
  - id: q
    sql: SELECT :utid AS u, :mode AS m
)yaml"));
  EXPECT_EQ(Run("typed").outcome, SkillOutcome::kInvalidArgument);
  EXPECT_THAT(Run("typed").message, HasSubstr("missing required input(s): utid"));
  EXPECT_THAT(Run("typed", {{"utid", "12abc"}}).message, HasSubstr("is not an integer"));
  EXPECT_THAT(Run("typed", {{"utid", "1"}, {"mode", "c"}}).message, HasSubstr("not one of its values"));
  EXPECT_THAT(Run("typed", {{"utid", "1"}, {"color", "red"}}).message, HasSubstr("unknown input 'color'"));
  SkillRunResult ok = Run("typed", {{"utid", "7"}, {"mode", "b"}});
  ASSERT_EQ(ok.outcome, SkillOutcome::kOk);
  EXPECT_EQ(ok.steps[0]->rows[0][0].int_value, 7);
  EXPECT_EQ(ok.steps[0]->rows[0][1].string_value, "b");
}

TEST_F(SkillExecutorTest, WhenOptionalAndFailures) {
  Add(absl::StrCat("name: flow\n", kHeader, R"yaml(steps:
  - id: count
    sql: SELECT COUNT(*) AS n FROM sched
  - id: never
    when: steps.count.rows[0].n < 0
    sql: SELECT 1 AS x
  - id: broken
    optional: true
    sql: SELECT no_such_column FROM sched
  - id: after
    when: steps.never.row_count == null and steps.broken.status == null
    sql: SELECT 2 AS y
)yaml"));
  SkillRunResult r = Run("flow");
  ASSERT_EQ(r.outcome, SkillOutcome::kOk) << r.message;
  ASSERT_EQ(r.steps.size(), 4u);
  EXPECT_EQ(r.steps[0]->rows[0][0].int_value, Scalar("SELECT COUNT(*) FROM sched"));
  EXPECT_EQ(r.steps[1]->status, StepStatus::kSkipped);
  EXPECT_EQ(r.steps[2]->status, StepStatus::kFailed);
  EXPECT_THAT(r.steps[2]->message, HasSubstr("no such column: no_such_column"));
  EXPECT_EQ(r.steps[3]->status, StepStatus::kOk) << "skipped and failed steps read as null";

  Add(absl::StrCat("name: fails\n", kHeader, R"yaml(steps:
  - id: bad
    sql: SELECT no_such_column FROM sched
  - id: never_runs
    sql: SELECT 1
)yaml"));
  SkillRunResult f = Run("fails");
  EXPECT_EQ(f.outcome, SkillOutcome::kError);
  EXPECT_THAT(f.message, HasSubstr("step 'bad' failed"));
  EXPECT_EQ(f.steps.size(), 1u);
  EXPECT_EQ(events_.back(), "0:skill_error");
}

TEST_F(SkillExecutorTest, NotSupportedNamesWhatIsMissing) {
  ASSERT_EQ(Scalar("SELECT COUNT(*) FROM actual_frame_timeline_slice"), 0);
  Add(absl::StrCat("name: frames\n", kHeader, R"yaml(requires: {tables: [sched, actual_frame_timeline_slice]}
steps:
  - id: q
    sql: SELECT COUNT(*) FROM actual_frame_timeline_slice
)yaml"));
  SkillRunResult r = Run("frames");
  EXPECT_EQ(r.outcome, SkillOutcome::kNotSupported);
  EXPECT_EQ(r.message,
            "not supported by this trace: skill 'frames' needs data in actual_frame_timeline_slice, "
            "which is empty in this trace");
  EXPECT_TRUE(r.steps.empty());

  Add(absl::StrCat("name: future\n", kHeader, R"yaml(requires: {modules: [android.future_module]}
steps:
  - id: q
    sql: SELECT 1
)yaml"));
  SkillRunResult m = Run("future");
  EXPECT_EQ(m.outcome, SkillOutcome::kNotSupported);
  EXPECT_THAT(m.message, HasSubstr("needs SQL module 'android.future_module'"));
}

TEST_F(SkillExecutorTest, ForEachDiagnoseAndCalls) {
  Add(absl::StrCat("name: thread_total\n", kHeader, R"yaml(inputs:
  - {name: utid, type: int, required: true}
steps:
  - id: total
    sql: SELECT :utid AS utid, SUM(dur) AS total_dur, COUNT(*) AS slices FROM sched WHERE utid = :utid
  - id: check
    diagnose:
      - id: busy
        condition: steps.total.rows[0].slices > 0
        severity: info
        title: "thread {{ inputs.utid }} ran {{ steps.total.rows[0].slices }} slices"
        evidence: {step: total, fields: [total_dur]}
)yaml"));
  Add(absl::StrCat("name: top_threads\n", kHeader, R"yaml(steps:
  - id: top
    sql: |
      SELECT utid, SUM(dur) AS total_dur FROM sched WHERE utid != 0
      GROUP BY utid ORDER BY total_dur DESC, utid LIMIT 10
  - id: each
    for_each: top
    max_items: 3
    step:
      skill: thread_total
      args: {utid: row.utid}
  - id: first
    skill: thread_total
    args:
      utid: steps.top.rows[0].utid
  - id: verdict
    diagnose:
      - id: heavy
        over: top
        condition: row.total_dur >= steps.top.rows[2].total_dur
        severity: warning
        title: "utid {{ row.utid }} ran {{ row.total_dur }} ns"
        suggestions: ["look at utid {{ row.utid }}"]
        evidence: {fields: [utid, total_dur]}
        max_findings: 2
)yaml"));
  SkillRunResult r = Run("top_threads");
  ASSERT_EQ(r.outcome, SkillOutcome::kOk) << r.message;
  const StepResult& top = *r.steps[0];
  ASSERT_GE(top.rows.size(), 3u);
  const StepResult& each = *r.steps[1];
  EXPECT_EQ(each.rows.size(), 3u) << "max_items";
  EXPECT_TRUE(each.truncated);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(each.rows[i][0].int_value, top.rows[i][0].int_value);
    EXPECT_EQ(each.rows[i][1].int_value, top.rows[i][1].int_value) << "same total via the call";
    EXPECT_EQ(each.rows[i][2].int_value,
              Scalar(absl::StrCat("SELECT COUNT(*) FROM sched WHERE utid = ", top.rows[i][0].int_value)));
  }
  EXPECT_EQ(r.steps[2]->rows[0][0].int_value, top.rows[0][0].int_value);
  // 3 called-skill findings from for_each + 1 from `first` + 2 per-row findings (capped).
  ASSERT_EQ(r.findings.size(), 6u);
  EXPECT_EQ(r.findings[0].skill, "thread_total");
  EXPECT_EQ(r.findings[0].title, absl::StrCat("thread ", top.rows[0][0].int_value, " ran ",
                                              each.rows[0][2].int_value, " slices"));
  const Finding& heavy = r.findings[4];
  EXPECT_EQ(heavy.rule, "heavy");
  EXPECT_EQ(heavy.severity, Severity::kWarning);
  EXPECT_EQ(heavy.evidence_step, "top");
  EXPECT_EQ(heavy.evidence_artifact_id, top.artifact_id);
  EXPECT_EQ(heavy.evidence_row, 0);
  ASSERT_EQ(heavy.evidence_fields.size(), 2u);
  EXPECT_EQ(heavy.evidence_fields[1].second.int_value, top.rows[0][1].int_value);
  EXPECT_EQ(heavy.suggestions[0], absl::StrCat("look at utid ", top.rows[0][0].int_value));
  EXPECT_EQ(r.findings[5].evidence_row, 1);
  // Called skills report their events one level down.
  EXPECT_THAT(events_, ::testing::Contains("1:skill_started"));
  EXPECT_THAT(events_, ::testing::Contains("0:finding:verdict"));
  const StepResult& verdict = *r.steps[3];
  EXPECT_EQ(verdict.rows.size(), 2u) << "the diagnose step's table lists its findings";
}

TEST_F(SkillExecutorTest, OutputEvidenceRowAndCalledSkillSupport) {
  Add(absl::StrCat("name: needs_frames\n", kHeader, R"yaml(requires: {tables: [actual_frame_timeline_slice]}
steps:
  - id: q
    sql: SELECT 1 AS one
)yaml"));
  Add(absl::StrCat("name: caller\n", kHeader, R"yaml(output: counts
steps:
  - id: counts
    sql: |
      SELECT 'sched' AS name, (SELECT COUNT(*) FROM sched) AS n
      UNION ALL SELECT 'frames', (SELECT COUNT(*) FROM actual_frame_timeline_slice)
  - id: frames
    optional: true
    skill: needs_frames
  - id: after
    sql: SELECT 1 AS one
  - id: verdict
    diagnose:
      - id: no_frames
        condition: steps.counts.rows[1].n == 0 and steps.frames.status == null
        severity: info
        title: "no frames"
        evidence: {step: counts, row: 1, fields: [name, n]}
)yaml"));
  SkillRunResult r = Run("caller");
  ASSERT_EQ(r.outcome, SkillOutcome::kOk) << r.message;
  EXPECT_EQ(r.steps[1]->status, StepStatus::kNotSupported);
  EXPECT_THAT(r.steps[1]->message, HasSubstr("needs data in actual_frame_timeline_slice"));
  EXPECT_EQ(r.steps[2]->status, StepStatus::kOk) << "an optional unsupported call does not stop the skill";
  ASSERT_NE(r.Output(), nullptr);
  EXPECT_EQ(r.Output()->step, "counts");
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].evidence_row, 1);
  ASSERT_EQ(r.findings[0].evidence_fields.size(), 2u);
  EXPECT_EQ(r.findings[0].evidence_fields[0].second.string_value, "frames");

  Add(absl::StrCat("name: strict_caller\n", kHeader, R"yaml(steps:
  - id: frames
    skill: needs_frames
  - id: after
    sql: SELECT 1 AS one
)yaml"));
  SkillRunResult strict = Run("strict_caller");
  EXPECT_EQ(strict.outcome, SkillOutcome::kNotSupported);
  EXPECT_THAT(strict.message, HasSubstr("skill 'needs_frames' needs data in actual_frame_timeline_slice"));
  EXPECT_EQ(strict.steps.size(), 1u);
}

TEST_F(SkillExecutorTest, ForEachBodiesThatFail) {
  Add(absl::StrCat("name: loops\n", kHeader, R"yaml(steps:
  - id: numbers
    sql: SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3
  - id: tolerant
    for_each: numbers
    step:
      optional: true
      sql: SELECT CASE WHEN :n = 2 THEN json_extract('not json', '$') ELSE :n * 10 END AS v
      params: {n: row.n}
  - id: filtered
    for_each: numbers
    step:
      when: row.n != 2
      sql: SELECT :n AS v
      params: {n: row.n}
  - id: strict
    for_each: numbers
    step:
      sql: SELECT CASE WHEN :n = 3 THEN json_extract('not json', '$') ELSE :n END AS v
      params: {n: row.n}
)yaml"));
  SkillRunResult r = Run("loops");
  EXPECT_EQ(r.outcome, SkillOutcome::kError);
  ASSERT_EQ(r.steps.size(), 4u);
  const StepResult& tolerant = *r.steps[1];
  EXPECT_EQ(tolerant.status, StepStatus::kOk);
  ASSERT_EQ(tolerant.rows.size(), 2u);
  EXPECT_EQ(tolerant.rows[1][0].int_value, 30);
  EXPECT_THAT(tolerant.message, HasSubstr("1 of 3 iterations failed (optional)"));
  EXPECT_EQ(r.steps[2]->rows.size(), 2u) << "the body's when skips row 2";
  EXPECT_EQ(r.steps[3]->status, StepStatus::kFailed);
  EXPECT_THAT(r.message, HasSubstr("step 'strict' failed: 1 of 3 iterations failed; first: strict[2]: malformed JSON"));
}

}  // namespace
}  // namespace tw::skills
