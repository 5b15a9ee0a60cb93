// Skill results on the wire: StepResult <-> DataEnvelope round trip, findings with evidence,
// and executor events as SkillEvent protos.

#include "libs/skills/envelope_proto.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tw::skills {
namespace {

StepResult Sample() {
  StepResult r;
  r.skill = "frame_overview";
  r.step = "layers";
  r.kind = "sql";
  r.title = "Frames per layer";
  r.level = "summary";
  r.columns = {{"layer", ColumnType::kString, ""}, {"p90", ColumnType::kDurationNs, ""},
               {"rate", ColumnType::kPercent, "%"}};
  r.rows = {{SqlValue::String("app#0"), SqlValue::Int(18'000'000), SqlValue::Double(7.5)},
            {SqlValue::Null(), SqlValue::Int(-1), SqlValue::Double(0)}};
  r.truncated = true;
  r.sql = "SELECT ... WHERE upid = :upid";
  r.parameters = {{"upid", SqlValue::Int(12)}, {"name", SqlValue::String("x")}};
  r.elapsed_ns = 1234;
  r.kind = "sql";
  r.artifact_id = "frame_overview.layers-0badf00d";
  return r;
}

TEST(EnvelopeProtoTest, StepResultRoundTrip) {
  const StepResult r = Sample();
  const tracewise::v1::DataEnvelope e = ToEnvelope(r, "trace-7");
  EXPECT_EQ(e.artifact_id(), r.artifact_id);
  EXPECT_EQ(e.level(), "summary");
  ASSERT_EQ(e.columns_size(), 3);
  EXPECT_EQ(e.columns(1).type(), tracewise::v1::COLUMN_TYPE_DURATION_NS);
  EXPECT_EQ(e.columns(2).unit(), "%");
  ASSERT_EQ(e.rows_size(), 2);
  EXPECT_FALSE(e.rows(1).values(0).has_string_value()) << "NULL stays unset";
  EXPECT_EQ(e.rows(0).values(1).int_value(), 18'000'000);
  EXPECT_EQ(e.provenance().trace_id(), "trace-7");
  EXPECT_EQ(e.provenance().parameters(0).value().int_value(), 12);

  const StepResult back = FromEnvelope(e);
  EXPECT_EQ(back.artifact_id, r.artifact_id);
  EXPECT_EQ(back.step, r.step);
  EXPECT_EQ(back.sql, r.sql);
  EXPECT_EQ(back.elapsed_ns, r.elapsed_ns);
  EXPECT_EQ(back.kind, "sql");  // the executor picks a skill's output by step kind
  EXPECT_TRUE(back.truncated);
  ASSERT_EQ(back.columns.size(), 3u);
  EXPECT_EQ(back.columns[1].type, ColumnType::kDurationNs);
  ASSERT_EQ(back.rows.size(), 2u);
  EXPECT_TRUE(back.rows[1][0].is_null());
  EXPECT_EQ(back.rows[0][0].string_value, "app#0");
  EXPECT_EQ(back.rows[1][1].int_value, -1);
  EXPECT_DOUBLE_EQ(back.rows[0][2].double_value, 7.5);
  ASSERT_EQ(back.parameters.size(), 2u);
  EXPECT_EQ(back.parameters[1].second.string_value, "x");
}

TEST(EnvelopeProtoTest, FindingsAndEvents) {
  const StepResult r = Sample();
  Finding f;
  f.skill = "frame_overview";
  f.step = "verdict";
  f.rule = "high_jank";
  f.severity = Severity::kWarning;
  f.title = "app#0: 7.5% janky";
  f.suggestions = {"look at janky_frames"};
  f.evidence_step = "layers";
  f.evidence_artifact_id = r.artifact_id;
  f.evidence_row = 0;
  f.evidence_fields = {{"rate", SqlValue::Double(7.5)}};
  const tracewise::v1::Finding pf = ToProto(f);
  EXPECT_EQ(pf.id(), "frame_overview.high_jank#0");
  EXPECT_EQ(pf.severity(), tracewise::v1::SEVERITY_MEDIUM);
  ASSERT_EQ(pf.evidence_size(), 1);
  EXPECT_EQ(pf.evidence(0).artifact_id(), r.artifact_id);
  EXPECT_EQ(pf.evidence(0).row(), 0);
  EXPECT_DOUBLE_EQ(pf.evidence(0).fields(0).value().double_value(), 7.5);
  EXPECT_EQ(pf.source(), "skill frame_overview / rule high_jank");

  SkillEvent step{SkillEvent::Kind::kStepCompleted, "frame_overview", "layers", 1, &r, nullptr, ""};
  const tracewise::v1::SkillEvent ps = ToProto(step, "t");
  EXPECT_EQ(ps.kind(), tracewise::v1::SkillEvent::STEP_COMPLETED);
  EXPECT_EQ(ps.depth(), 1);
  EXPECT_EQ(ps.step_status(), "ok");
  EXPECT_EQ(ps.envelope().rows_size(), 2);

  SkillEvent done{SkillEvent::Kind::kSkillCompleted, "frame_overview", "", 0, nullptr, nullptr,
                  "not_supported: not supported by this trace: ..."};
  const tracewise::v1::SkillEvent pd = ToProto(done);
  EXPECT_EQ(pd.outcome(), "not_supported");
  EXPECT_EQ(pd.message(), "not supported by this trace: ...");

  SkillEvent finding{SkillEvent::Kind::kFinding, "frame_overview", "verdict", 0, nullptr, &f, ""};
  EXPECT_EQ(ToProto(finding).finding().title(), f.title);
}

}  // namespace
}  // namespace tw::skills
