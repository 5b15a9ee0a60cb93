// What a diagnosis answers, on tracegen scenarios with known ground truth: the direct answer line
// (yes/no first, the numbers that show it), the healthy verdict on clean traces, the scenes a
// question leads to (its own, and those whose signals show a problem when it is general or its
// own scene is clean), and one finding per cause.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/agent/scenario_diagnosis.h"

namespace tw::agent {
namespace {

using testing::ScenarioDiagnosis;
using testing::TopFindingsText;

// Janky frames as the frame timeline counts them (Buffer Stuffing follows earlier late frames).
int64_t JankyFrames(const tracegen::GroundTruth& t) {
  return std::count_if(t.janky_frames.begin(), t.janky_frames.end(),
                       [](const tracegen::JankyFrame& f) { return f.jank_type != "Buffer Stuffing"; });
}

const SceneCheck* Check(const AnalysisReport& r, const std::string& scene) {
  for (const SceneCheck& c : r.scenes_checked) {
    if (c.scene == scene) return &c;
  }
  return nullptr;
}

bool Analysed(const AnalysisReport& r, const std::string& scene) {
  return std::find(r.scenes.begin(), r.scenes.end(), scene) != r.scenes.end();
}

void ExpectVerified(const AnalysisReport& r) {
  EXPECT_TRUE(r.verified) << r.answer;
  for (const auto& issue : r.verifier_issues) {
    EXPECT_NE(issue.severity, verify::IssueSeverity::kError) << issue.kind << ": " << issue.message;
  }
}

TEST(DiagnosisTest, CleanScrollGetsAConfidentHealthyVerdictWithItsNumbers) {
  ScenarioDiagnosis d;
  for (int fps : {60, 120}) {
    tracegen::GroundTruth truth;
    const AnalysisReport r = d.Analyze("scroll_smooth", "Is scrolling smooth?", &truth, 3, fps);
    EXPECT_EQ(r.scene, "scrolling");
    // "Yes — scrolling is smooth (0 of 180 frames missed their deadline (0 %); p99 ... at 60 Hz)."
    EXPECT_EQ(r.answer.rfind("Yes — scrolling is smooth", 0), 0u) << r.answer;
    EXPECT_NE(r.answer.find(absl::StrCat("0 of ", truth.frames_total, " frames")), std::string::npos)
        << r.answer;
    EXPECT_NE(r.answer.find(absl::StrCat(fps, " Hz")), std::string::npos) << r.answer;
    EXPECT_FALSE(r.answer_evidence.empty());
    for (const ReportFinding& f : r.findings) {
      EXPECT_GT(f.severity, FindingSeverity::kHigh) << "a clean scroll reported: " << f.title;
    }
    const SceneCheck* scrolling = Check(r, "scrolling");
    ASSERT_NE(scrolling, nullptr);
    EXPECT_EQ(scrolling->status, "healthy");
    ExpectVerified(r);
  }
  // Asked the other way round, the same trace answers No.
  const AnalysisReport r = d.Analyze("scroll_smooth", "Does the app drop frames?", nullptr, 3, 60);
  EXPECT_EQ(r.answer.rfind("No — scrolling is smooth", 0), 0u) << r.answer;
}

TEST(DiagnosisTest, JankAnswerStatesTheCountsAndTheMainCause) {
  ScenarioDiagnosis d;
  tracegen::GroundTruth truth;
  const AnalysisReport r = d.Analyze("scroll_binder_jank", "Why does com.example.feed drop frames?", &truth);
  EXPECT_EQ(r.scene, "scrolling");
  EXPECT_EQ(r.answer.rfind("Scrolling is janky", 0), 0u) << r.answer;
  EXPECT_NE(r.answer.find(absl::StrCat(JankyFrames(truth), " of ", truth.frames_total, " frames")),
            std::string::npos)
      << r.answer;
  EXPECT_NE(r.answer.find("main cause"), std::string::npos) << r.answer;
  EXPECT_NE(absl::AsciiStrToLower(r.answer).find("binder"), std::string::npos) << r.answer;
  // Yes/no: "does it drop frames?" on a janky trace is a Yes.
  const AnalysisReport yes = d.Analyze("scroll_binder_jank", "Does the app drop frames while scrolling?");
  EXPECT_EQ(yes.answer.rfind("Yes — scrolling is janky", 0), 0u) << yes.answer;
  ExpectVerified(r);
}

TEST(DiagnosisTest, OneFindingPerCause) {
  ScenarioDiagnosis d;
  tracegen::GroundTruth truth;
  const AnalysisReport r = d.Analyze("scroll_binder_jank", "why does scrolling stutter?", &truth);
  ASSERT_GE(truth.injected_binder.size(), 3u);
  // Every slow call, every worst-frame drill and the classification are one binder finding.
  int binder_findings = 0;
  for (const ReportFinding& f : r.findings) {
    if (f.severity > FindingSeverity::kHigh) continue;
    const std::string text = absl::AsciiStrToLower(f.title + " " + f.description);
    if (text.find("binder") != std::string::npos) ++binder_findings;
  }
  EXPECT_EQ(binder_findings, 1) << TopFindingsText(r, 12);
  // It leads, names the server and the method, and cites every piece of evidence.
  ASSERT_FALSE(r.findings.empty());
  const ReportFinding& top = r.findings.front();
  EXPECT_EQ(top.cause, "binder");
  const std::string text = absl::AsciiStrToLower(top.title + " " + top.description);
  EXPECT_NE(text.find("system_server"), std::string::npos) << text;
  EXPECT_NE(text.find("getpackageinfo"), std::string::npos) << text;
  EXPECT_GE(top.evidence.size(), 2u);
  ExpectVerified(r);
}

TEST(DiagnosisTest, ASpecificQuestionWhoseSceneIsCleanLooksWhereTheProblemIs) {
  ScenarioDiagnosis d;
  tracegen::GroundTruth truth;
  const AnalysisReport r = d.Analyze("startup_cold_slow_io", "Is scrolling smooth?", &truth);
  EXPECT_EQ(r.scene, "scrolling");
  const SceneCheck* startup = Check(r, "startup");
  ASSERT_NE(startup, nullptr);
  EXPECT_EQ(startup->status, "problem");
  EXPECT_TRUE(startup->analysed) << startup->reason;
  EXPECT_TRUE(Analysed(r, "startup"));
  // "Yes — scrolling is smooth (...); but the startup is slow (the cold startup of ... took 438.2 ms ...)"
  EXPECT_EQ(r.answer.rfind("Yes — scrolling is smooth", 0), 0u) << r.answer;
  EXPECT_NE(r.answer.find("but the startup is slow"), std::string::npos) << r.answer;
  EXPECT_NE(r.answer.find("cold"), std::string::npos) << r.answer;
  ExpectVerified(r);
}

TEST(DiagnosisTest, AGeneralQuestionRunsTheScenesWithProblems) {
  ScenarioDiagnosis d;
  const AnalysisReport jank = d.Analyze("scroll_binder_jank", "What's wrong with this trace?");
  EXPECT_EQ(jank.scene, "general");
  EXPECT_TRUE(Analysed(jank, "scrolling"));
  EXPECT_TRUE(Analysed(jank, "general"));
  EXPECT_EQ(jank.answer.rfind("The trace shows", 0), 0u) << jank.answer;
  EXPECT_NE(absl::AsciiStrToLower(jank.answer).find("binder"), std::string::npos) << jank.answer;
  EXPECT_NE(TopFindingsText(jank, 3).find("binder"), std::string::npos);
  ExpectVerified(jank);

  const AnalysisReport clean = d.Analyze("scroll_smooth", "What's wrong with this trace?");
  EXPECT_EQ(clean.answer.rfind("No performance problem found", 0), 0u) << clean.answer;
  EXPECT_NE(clean.answer.find("scrolling is smooth"), std::string::npos) << clean.answer;
  EXPECT_EQ(clean.scenes, std::vector<std::string>{"general"});
  for (const ReportFinding& f : clean.findings) EXPECT_GT(f.severity, FindingSeverity::kHigh) << f.title;
  // The general answer gets the trace's facts: where the main threads' time went, the longest
  // slices, the busiest threads and processes.
  std::set<std::string> skills;
  for (const AnalysisStep& s : clean.steps) {
    if (s.status == "ok") skills.insert(s.skill);
  }
  for (const char* skill : {"trace_facts", "main_thread_hotspots", "longest_slices", "busiest_threads",
                            "busiest_processes"}) {
    EXPECT_TRUE(skills.count(skill)) << skill;
  }
  ExpectVerified(clean);
}

}  // namespace
}  // namespace tw::agent
