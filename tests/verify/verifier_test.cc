#include "libs/verify/verifier.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "libs/verify/correction_prompt.h"

namespace tw::verify {
namespace {

// A complete, correct scrolling analysis: the baseline every broken variant starts from.
AnalysisRecord GoodScrollingRecord() {
  AnalysisRecord r;
  r.scene = "scrolling";
  r.requirements.plan_aspects = {"frame overview", "per-frame deep drill"};
  r.requirements.mandatory_phases = {"frame_overview", "deep_drill"};
  r.plan.present = true;
  r.plan.covered_aspects = {"Frame overview", "per-frame deep drill"};
  r.plan.phases = {{"frame_overview", "done", ""}, {"deep_drill", "done", ""}};
  Artifact overview;
  overview.id = "a1";
  overview.columns = {{"frames", ColumnUnit::kNumber}, {"janky_frames", ColumnUnit::kNumber}};
  overview.rows = {{int64_t{412}, int64_t{38}}};
  Artifact detail;
  detail.id = "a2";
  detail.columns = {{"frame_id", ColumnUnit::kNumber}, {"binder_dur", ColumnUnit::kDurationNs},
                    {"server_process", ColumnUnit::kUnknown}};
  detail.rows = {{int64_t{1021}, int64_t{27'400'000}, std::string("system_server")}};
  r.artifacts = {overview, detail};
  r.tool_calls = {{"invoke_skill", "frame_overview", true, {"a1"}},
                  {"invoke_skill", "frame_detail", true, {"a2"}}};
  r.hypotheses = {{"h1", "binder blocks the main thread", HypothesisStatus::kConfirmed, {"a2"}}};
  r.findings = {{"f1", Severity::kCritical, "Main thread blocked in binder",
                 "38 of 412 frames janky (9.2 %); frame 1021 waited 27.4 ms on system_server.",
                 {"a1", "a2"}},
                {"f2", Severity::kLow, "Minor", "Nothing else stands out.", {"a1"}}};
  r.conclusion = "Scrolling stutters because the main thread waits in binder.";
  return r;
}

bool HasIssue(const VerifyResult& result, const std::string& kind, IssueSeverity severity) {
  return std::any_of(result.issues.begin(), result.issues.end(), [&](const VerifyIssue& i) {
    return i.kind == kind && i.severity == severity;
  });
}

TEST(VerifierTest, GoodRecordPasses) {
  VerifyResult result = Verify(GoodScrollingRecord());
  EXPECT_TRUE(result.passed());
  EXPECT_EQ(result.issues.size(), 0u) << result.issues[0].message;
  EXPECT_EQ(CorrectionPrompt(result), "");
}

TEST(VerifierTest, MissingPlanAndIncompletePhases) {
  AnalysisRecord r = GoodScrollingRecord();
  r.plan.phases[1].status = "in_progress";
  r.plan.covered_aspects.pop_back();
  VerifyResult result = Verify(r);
  EXPECT_TRUE(HasIssue(result, "plan_aspect_missing", IssueSeverity::kError));
  EXPECT_TRUE(HasIssue(result, "mandatory_phase_incomplete", IssueSeverity::kError));
  r.plan.phases[1].status = "not_supported";  // the trace lacks the data: a warning
  EXPECT_TRUE(HasIssue(Verify(r), "mandatory_phase_not_supported", IssueSeverity::kWarning));
  EXPECT_FALSE(HasIssue(Verify(r), "mandatory_phase_incomplete", IssueSeverity::kError));
  r.plan = Plan{};
  EXPECT_TRUE(HasIssue(Verify(r), "plan_missing", IssueSeverity::kError));
  r.deterministic = true;  // the offline analyst's procedure is its plan
  EXPECT_FALSE(HasIssue(Verify(r), "plan_missing", IssueSeverity::kError));
  r.deterministic = false;
  r.quick_mode = true;  // a factual answer needs no plan
  EXPECT_FALSE(HasIssue(Verify(r), "plan_missing", IssueSeverity::kError));
}

TEST(VerifierTest, UngroundedNumbersInSevereFindingsAreErrors) {
  AnalysisRecord r = GoodScrollingRecord();
  r.findings[0].description = "52 of 412 frames janky; frame 1021 waited 27.4 ms on system_server.";
  VerifyResult result = Verify(r);
  ASSERT_TRUE(HasIssue(result, "ungrounded_number", IssueSeverity::kError));
  EXPECT_NE(result.issues[0].message.find("52"), std::string::npos);
  EXPECT_EQ(result.issues[0].finding_id, "f1");
  // The same slip in a low finding is a warning.
  r = GoodScrollingRecord();
  r.findings[1].description = "About 75 ms spent elsewhere.";
  result = Verify(r);
  EXPECT_TRUE(result.passed());
  EXPECT_TRUE(HasIssue(result, "ungrounded_number", IssueSeverity::kWarning));
}

TEST(VerifierTest, EvidenceMustExist) {
  AnalysisRecord r = GoodScrollingRecord();
  r.findings[0].evidence = {"a9"};
  VerifyResult result = Verify(r);
  EXPECT_TRUE(HasIssue(result, "unknown_artifact", IssueSeverity::kError));
  r.findings[0].evidence.clear();
  EXPECT_TRUE(HasIssue(Verify(r), "finding_without_evidence", IssueSeverity::kError));
}

TEST(VerifierTest, OpenHypothesesBlock) {
  AnalysisRecord r = GoodScrollingRecord();
  r.hypotheses.push_back({"h2", "GC stalls frames", HypothesisStatus::kOpen, {}});
  EXPECT_TRUE(HasIssue(Verify(r), "hypothesis_unresolved", IssueSeverity::kError));
}

// The rules as the shipped strategies and pitfall files declare them (content, not code: see
// strategies/*.strategy.md `verification` and strategies/pitfalls/).
CompletenessRule DrillRule() {
  return {"scrolling", "frame_detail", {}, false, "Run frame_detail on the worst janky frame."};
}
CompletenessRule StartupRule() {
  return {"startup", "", {"cold", "warm", "hot"}, true, "State the startup type and duration."};
}
std::vector<PitfallRule> Pitfalls() {
  PitfallRule single{"misdiagnosis_single_frame", {Severity::kCritical}, {},
                     {"1 frame", "one frame", "a single frame", "one janky frame"}, {},
                     "Finding '{title}' rates a single slow frame as critical."};
  PitfallRule stuffing{"misdiagnosis_buffer_stuffing", {Severity::kCritical, Severity::kHigh},
                       {"buffer stuffing"}, {"app jank", "caused by the app"}, {"buffer stuffing"},
                       "Finding '{title}' treats Buffer Stuffing as app jank."};
  return {single, stuffing};
}

TEST(VerifierTest, SceneCompleteness) {
  AnalysisRecord r = GoodScrollingRecord();
  r.requirements.completeness = {DrillRule(), StartupRule()};
  EXPECT_FALSE(HasIssue(Verify(r), "scene_incomplete", IssueSeverity::kError));
  r.tool_calls.pop_back();  // no frame_detail drill
  EXPECT_TRUE(HasIssue(Verify(r), "scene_incomplete", IssueSeverity::kError));
  // A rule applies only to serious findings of its own scene: the same findings under another
  // scene (a secondary scene of a diagnosis) do not need scrolling's drill.
  for (Finding& f : r.findings) f.scene = "memory";
  EXPECT_FALSE(HasIssue(Verify(r), "scene_incomplete", IssueSeverity::kError));

  AnalysisRecord startup = GoodScrollingRecord();
  startup.requirements.completeness = {DrillRule(), StartupRule()};
  startup.scene = "startup";
  startup.findings[0].description = "The launch is slow because of binder (frame 1021).";
  startup.findings[1].description = "";
  startup.conclusion = "Slow launch.";
  EXPECT_TRUE(HasIssue(Verify(startup), "scene_incomplete", IssueSeverity::kError));
  startup.conclusion = "Cold startup took 27.4 ms of binder time.";
  EXPECT_FALSE(HasIssue(Verify(startup), "scene_incomplete", IssueSeverity::kError));
  // Without rules nothing is required.
  startup.requirements.completeness.clear();
  startup.conclusion = "Slow launch.";
  EXPECT_FALSE(HasIssue(Verify(startup), "scene_incomplete", IssueSeverity::kError));
}

TEST(VerifierTest, KnownMisdiagnoses) {
  AnalysisRecord r = GoodScrollingRecord();
  r.requirements.pitfalls = Pitfalls();
  r.findings[0].title = "One janky frame";
  r.findings[0].description = "Only one frame was late (frame 1021, 27.4 ms).";
  VerifyResult result = Verify(r);
  ASSERT_TRUE(HasIssue(result, "misdiagnosis_single_frame", IssueSeverity::kError));
  EXPECT_NE(result.issues[0].message.find("'One janky frame'"), std::string::npos);

  r = GoodScrollingRecord();
  r.requirements.pitfalls = Pitfalls();
  r.findings[0].title = "Buffer Stuffing is the main app jank";
  EXPECT_TRUE(HasIssue(Verify(r), "misdiagnosis_buffer_stuffing", IssueSeverity::kError));
  r.findings[0].severity = Severity::kLow;  // the rule is about serious findings only
  EXPECT_FALSE(HasIssue(Verify(r), "misdiagnosis_buffer_stuffing", IssueSeverity::kError));
  // "11 frames" must not be read as "1 frame".
  r = GoodScrollingRecord();
  r.requirements.pitfalls = Pitfalls();
  r.findings[0].description = "38 of 412 frames janky; 11 frames over budget; 27.4 ms binder.";
  EXPECT_FALSE(HasIssue(Verify(r), "misdiagnosis_single_frame", IssueSeverity::kError));
}

TEST(VerifierTest, TheAnswerLineIsGrounded) {
  AnalysisRecord r = GoodScrollingRecord();
  r.answer = "No: 38 of 412 frames missed their deadline.";
  r.answer_evidence = {"a1"};
  EXPECT_TRUE(Verify(r).passed());
  r.answer = "No: 39 of 412 frames missed their deadline.";
  EXPECT_TRUE(HasIssue(Verify(r), "ungrounded_number", IssueSeverity::kError));
}

TEST(VerifierTest, ConclusionShapeAndCorrectionPrompt) {
  AnalysisRecord r = GoodScrollingRecord();
  r.conclusion = "  ";
  for (int i = 0; i < 4; ++i) r.findings.insert(r.findings.begin(), r.findings[0]);
  std::swap(r.findings.front(), r.findings.back());  // low first: out of order
  VerifyResult result = Verify(r);
  EXPECT_TRUE(HasIssue(result, "conclusion_missing", IssueSeverity::kError));
  EXPECT_TRUE(HasIssue(result, "too_many_criticals", IssueSeverity::kWarning));
  EXPECT_TRUE(HasIssue(result, "findings_out_of_order", IssueSeverity::kWarning));
  EXPECT_EQ(result.issues.front().severity, IssueSeverity::kError);  // errors lead
  const std::string prompt = CorrectionPrompt(result);
  EXPECT_NE(prompt.find("1. [conclusion_missing]"), std::string::npos);
  EXPECT_NE(prompt.find("Also consider:"), std::string::npos);
}

}  // namespace
}  // namespace tw::verify
