// The difference table of two runs of one skill, on hand-made step results: rows matched by
// their names (layer instance numbers ignored), in rank order when no name matches, rows only
// one trace has, ids and time stamps left out, deltas and relative deltas, and the reference
// run's renamed artifacts.
#include "libs/agent/skill_comparison.h"

#include <gtest/gtest.h>

namespace tw::agent {
namespace {

using skills::ColumnType;
using skills::StepResult;

std::shared_ptr<StepResult> Layers(std::vector<std::vector<SqlValue>> rows) {
  auto r = std::make_shared<StepResult>();
  r->skill = "frame_overview";
  r->step = "layers";
  r->kind = "sql";
  r->level = "summary";
  r->artifact_id = "frame_overview.layers-1";
  r->columns = {{"upid", ColumnType::kNumber, ""},
                {"layer_name", ColumnType::kString, ""},
                {"ts", ColumnType::kTimestampNs, ""},
                {"frames", ColumnType::kNumber, ""},
                {"p90_dur", ColumnType::kDurationNs, ""}};
  r->rows = std::move(rows);
  return r;
}

std::vector<SqlValue> Row(int64_t upid, const std::string& layer, int64_t frames, int64_t p90) {
  return {SqlValue::Int(upid), SqlValue::String(layer), SqlValue::Int(123), SqlValue::Int(frames),
          SqlValue::Int(p90)};
}

skills::SkillRunResult RunOf(std::shared_ptr<StepResult> step) {
  skills::SkillRunResult run;
  run.skill = "frame_overview";
  run.steps.push_back(std::move(step));
  return run;
}

TEST(SkillComparisonTest, RowsMatchByNameIgnoringInstanceNumbers) {
  const auto current = RunOf(Layers({Row(6, "TX - app#1342", 250, 20'000'000), Row(9, "other", 10, 1)}));
  const auto reference = RunOf(Layers({Row(7, "TX - app#77", 200, 8'000'000), Row(3, "gone", 5, 2)}));
  std::vector<std::string> notes;
  const auto table = DifferenceTable(current, reference, "cmp-1", {}, &notes);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->artifact_id, "cmp-1");
  EXPECT_TRUE(notes.empty());
  // frames and p90_dur per row; upid and ts are not measurements.
  ASSERT_EQ(table->rows.size(), 6u);
  const auto& frames = table->rows[0];
  EXPECT_EQ(frames[2].string_value, "TX - app");
  EXPECT_EQ(frames[3].string_value, "frames");
  EXPECT_EQ(frames[5].int_value, 250);
  EXPECT_EQ(frames[6].int_value, 200);
  EXPECT_EQ(frames[7].int_value, 50);
  EXPECT_DOUBLE_EQ(frames[8].double_value, 25.0);
  const auto& p90 = table->rows[1];
  EXPECT_EQ(p90[4].string_value, "duration_ns");
  EXPECT_EQ(p90[7].int_value, 12'000'000);
  EXPECT_DOUBLE_EQ(p90[8].double_value, 150.0);
  // A row only the current trace has, and one only the reference has.
  EXPECT_EQ(table->rows[2][2].string_value, "other");
  EXPECT_TRUE(table->rows[2][6].is_null());
  EXPECT_TRUE(table->rows[2][7].is_null());
  EXPECT_EQ(table->rows[4][2].string_value, "gone");
  EXPECT_TRUE(table->rows[4][5].is_null());
  EXPECT_EQ(table->rows[4][6].int_value, 5);

  const std::string text = DescribeDifferences(*table, 10);
  EXPECT_NE(text.find("layers [TX - app] frames: 250 vs 200 (+50, +25%)"), std::string::npos) << text;
  EXPECT_NE(text.find("p90_dur: 20.000 ms vs 8.000 ms (+12.000 ms, +150%)"), std::string::npos) << text;
  EXPECT_NE(text.find("[other] frames: 10 vs absent"), std::string::npos) << text;
  EXPECT_NE(DescribeDifferences(*table, 2).find("4 more rows in cmp-1"), std::string::npos);
}

TEST(SkillComparisonTest, RowsWithoutCommonNamesCompareInRankOrder) {
  const auto current = RunOf(Layers({Row(6, "com.a", 100, 10)}));
  const auto reference = RunOf(Layers({Row(6, "com.b", 100, 0)}));
  std::vector<std::string> notes;
  const auto table = DifferenceTable(current, reference, "cmp-2", {}, &notes);
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->rows.size(), 2u);
  EXPECT_EQ(table->rows[0][2].string_value, "com.a ~ com.b");
  EXPECT_EQ(table->rows[0][7].int_value, 0);
  EXPECT_TRUE(table->rows[1][8].is_null());  // relative change from 0 is undefined
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("rank order"), std::string::npos);
}

TEST(SkillComparisonTest, ReferenceRunsGetTheirOwnArtifactIds) {
  auto run = RunOf(Layers({Row(6, "x", 1, 1)}));
  skills::Finding f;
  f.evidence_artifact_id = "frame_overview.layers-1";
  run.findings.push_back(f);
  const auto reference = AsReferenceRun(run);
  EXPECT_EQ(reference.steps[0]->artifact_id, "ref-frame_overview.layers-1");
  EXPECT_EQ(reference.steps[0]->title, "[reference] layers");
  EXPECT_EQ(reference.findings[0].evidence_artifact_id, "ref-frame_overview.layers-1");
  EXPECT_EQ(run.steps[0]->artifact_id, "frame_overview.layers-1");  // the original is untouched

  // Nothing to compare when the current run has no summary.
  skills::SkillRunResult empty;
  empty.skill = "frame_overview";
  std::vector<std::string> notes;
  EXPECT_EQ(DifferenceTable(empty, run, "cmp-3", {}, &notes), nullptr);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("no summary"), std::string::npos);
}

}  // namespace
}  // namespace tw::agent
