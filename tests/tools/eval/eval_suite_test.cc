// The diagnosis benchmark's parts: the shipped suite is complete (every scene has planted and
// clean cases, every case's scenario exists, every scene's phrasings — at least ten, English and
// Chinese — are asked, the CI subset covers every scene), and the scoring judges detection,
// attribution, false positives, grounding and the answer line as documented.

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/strategy/question_reader.h"
#include "libs/strategy/strategy_library.h"
#include "tools/eval/eval_report.h"
#include "tools/eval/scoring.h"
#include "tools/eval/suite.h"
#include "tools/tracegen/tracegen.h"

namespace tw::eval {
namespace {

bool HasCjk(const std::string& s) {
  for (unsigned char c : s) {
    if (c >= 0xE4 && c <= 0xE9) return true;  // lead bytes of the CJK unified ideographs
  }
  return false;
}

class ShippedSuiteTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto suite = LoadSuite(TW_SOURCE_DIR "/tools/eval/suite.yaml");
    ASSERT_TRUE(suite.ok()) << suite.status();
    suite_ = new Suite(std::move(*suite));
  }
  static const Suite& suite() { return *suite_; }
  inline static Suite* suite_ = nullptr;
};

TEST_F(ShippedSuiteTest, EveryCaseNamesARealScenarioAndAQuestionSet) {
  std::set<std::string> scenarios;
  for (const tracegen::ScenarioInfo& s : tracegen::Scenarios()) scenarios.insert(s.name);
  ASSERT_FALSE(suite().cases.empty());
  std::set<std::string> ids;
  for (const Case& c : suite().cases) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate case " << c.id;
    EXPECT_TRUE(scenarios.count(c.scenario)) << c.id << ": no scenario " << c.scenario;
    EXPECT_TRUE(suite().question_sets.count(c.question_set)) << c.id << ": no question set " << c.question_set;
    EXPECT_FALSE(c.variants.empty()) << c.id;
    EXPECT_TRUE(c.expect.clean || !c.expect.causes.empty()) << c.id << " expects nothing";
    for (const std::string& cause : c.expect.causes) {
      EXPECT_TRUE(suite().cause_words.count(cause)) << c.id << ": no words for cause " << cause;
    }
  }
}

TEST_F(ShippedSuiteTest, EverySceneHasTenPhrasingsInEnglishAndChineseAndAllAreAsked) {
  auto strategies = strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies");
  ASSERT_TRUE(strategies.ok()) << strategies.status();
  std::map<std::string, std::set<std::string>> asked;
  for (const Case& c : suite().cases) {
    for (size_t v = 0; v < c.variants.size(); ++v) {
      for (const std::string& q : suite().QuestionsFor(c, v)) asked[c.question_set].insert(q);
    }
  }
  for (const strategy::Strategy& st : strategies->strategies()) {
    const strategy::Strategy* s = &st;
    const auto set = suite().question_sets.find(s->scene);
    ASSERT_NE(set, suite().question_sets.end()) << "no phrasings for scene " << s->scene;
    int chinese = 0;
    for (const std::string& q : set->second) chinese += HasCjk(q);
    const int english = static_cast<int>(set->second.size()) - chinese;
    EXPECT_GE(static_cast<int>(set->second.size()), 10) << s->scene;
    EXPECT_GE(english, 5) << s->scene;
    EXPECT_GE(chinese, 5) << s->scene;
    for (const std::string& q : set->second) {
      EXPECT_TRUE(asked[s->scene].count(q)) << s->scene << ": the suite never asks \"" << q << "\"";
    }
  }
}

TEST_F(ShippedSuiteTest, EverySceneHasPlantedAndCleanCasesAndTheCiSubsetCoversThem) {
  std::map<std::string, std::set<std::string>> kinds, ci_kinds;  // scene → {problem, clean}
  for (const Case& c : suite().cases) {
    const std::string kind = c.expect.clean ? "clean" : "problem";
    kinds[c.scene].insert(kind);
    for (const Variant& v : c.variants) {
      if (v.ci) ci_kinds[c.scene].insert(kind);
    }
  }
  for (const std::string scene : {"scrolling", "startup", "anr", "interaction", "memory", "cpu", "power", "general"}) {
    EXPECT_EQ(kinds[scene].size(), 2u) << scene;
    EXPECT_EQ(ci_kinds[scene].size(), 2u) << scene;
  }
}

TEST_F(ShippedSuiteTest, VariantsVaryRefreshRateDurationAndDevice) {
  std::set<int> fps;
  std::set<double> durations;
  std::set<uint32_t> cores;
  for (const Case& c : suite().cases) {
    for (const Variant& v : c.variants) {
      fps.insert(v.fps);
      durations.insert(v.duration_s);
      cores.insert(v.little_cpus * 100 + v.big_cpus);
    }
  }
  EXPECT_EQ(fps, (std::set<int>{60, 90, 120}));
  EXPECT_GE(durations.size(), 4u);
  EXPECT_GE(cores.size(), 3u);
}

// A report as the analyst would write it, citing one artifact.
agent::AnalysisReport Report(const std::string& scene, const std::string& answer) {
  agent::AnalysisReport r;
  r.scene = scene;
  r.answer = answer;
  auto a = std::make_shared<skills::StepResult>();
  a->artifact_id = "A1";
  a->columns = {{"calls", skills::ColumnType::kNumber, ""}, {"server", skills::ColumnType::kString, ""}};
  a->rows = {{SqlValue::Int(14), SqlValue::String("system_server")}};
  r.artifacts.push_back(a);
  r.answer_evidence = {"A1"};
  return r;
}

agent::ReportFinding Finding(agent::FindingSeverity severity, const std::string& title,
                             const std::string& cause = "") {
  agent::ReportFinding f;
  f.severity = severity;
  f.title = title;
  f.cause = cause;
  f.evidence = {"A1"};
  return f;
}

TEST(EvalScoringTest, DetectionAttributionAndGrounding) {
  Suite suite;
  suite.top_findings = 2;
  suite.cause_words = {{"binder", {"binder"}}, {"gc", {"garbage collect"}}};
  Case c;
  c.question_set = "scrolling";
  c.expect.causes = {"binder"};
  c.expect.name = {"system_server"};
  strategy::QuestionIntent intent;

  agent::AnalysisReport r = Report("scrolling", "14 frames were late, mostly binder calls");
  r.findings = {Finding(agent::FindingSeverity::kHigh, "14 binder calls to system_server blocked frames")};
  Score s = ScoreReport(r, c, suite, intent);
  EXPECT_TRUE(s.has_problem);
  EXPECT_TRUE(s.detected);
  EXPECT_TRUE(s.attributed);
  EXPECT_FALSE(s.false_positive);
  EXPECT_EQ(s.stated_numbers, 2);  // 14 in the title and in the answer
  EXPECT_EQ(s.grounded_numbers, 2);
  EXPECT_TRUE(s.answered);
  EXPECT_TRUE(s.routed);

  // The cause key alone detects; a number the artifact does not hold is not grounded; the
  // planted cause below the top findings is not detected.
  r.findings = {Finding(agent::FindingSeverity::kHigh, "37 frames waited", "binder")};
  s = ScoreReport(r, c, suite, intent);
  EXPECT_TRUE(s.detected);
  EXPECT_FALSE(s.attributed);
  EXPECT_EQ(s.grounded_numbers, s.stated_numbers - 1);
  r.findings = {Finding(agent::FindingSeverity::kHigh, "GC"), Finding(agent::FindingSeverity::kHigh, "lock"),
                Finding(agent::FindingSeverity::kMedium, "binder calls to system_server")};
  s = ScoreReport(r, c, suite, intent);
  EXPECT_FALSE(s.detected);
  EXPECT_FALSE(s.attributed);
}

TEST(EvalScoringTest, FalsePositivesOnCleanTracesAndDecoys) {
  Suite suite;
  Case clean;
  clean.question_set = "scrolling";
  clean.expect.clean = true;
  clean.expect.not_blamed = {"gms"};
  strategy::QuestionIntent intent;
  agent::AnalysisReport r = Report("scrolling", "Scrolling is smooth: 0 of 14 frames were late");
  r.findings = {Finding(agent::FindingSeverity::kLow, "gms collected garbage 14 times")};
  EXPECT_FALSE(ScoreReport(r, clean, suite, intent).false_positive);  // low severity: context
  r.findings = {Finding(agent::FindingSeverity::kHigh, "gms collected garbage 14 times")};
  EXPECT_TRUE(ScoreReport(r, clean, suite, intent).false_positive);

  Case planted = clean;
  planted.expect.clean = false;
  planted.expect.causes = {"gc"};
  suite.cause_words = {{"gc", {"garbage"}}};
  r.findings = {Finding(agent::FindingSeverity::kMedium, "the app's garbage collection blocked 14 frames"),
                Finding(agent::FindingSeverity::kHigh, "gms is busy")};
  const Score s = ScoreReport(r, planted, suite, intent);
  EXPECT_TRUE(s.detected);
  EXPECT_TRUE(s.false_positive);  // a severe finding blames the decoy
}

TEST(EvalScoringTest, AnswersAndRouting) {
  Suite suite;
  Case c;
  c.question_set = "startup";
  c.expect.clean = true;
  strategy::QuestionIntent yes_no;
  yes_no.yes_no = true;
  EXPECT_TRUE(ScoreReport(Report("startup", "No: the cold start took 14 ms"), c, suite, yes_no).answered);
  EXPECT_FALSE(ScoreReport(Report("startup", "The cold start took 14 ms"), c, suite, yes_no).answered);
  EXPECT_FALSE(ScoreReport(Report("startup", "The start was fine"), c, suite, {}).answered);  // no number
  EXPECT_FALSE(ScoreReport(Report("scrolling", "No: 14"), c, suite, yes_no).routed);
}

TEST(EvalReportTest, SummarizesPerSceneAndJudgesPerfection) {
  EvalResult result;
  auto add = [&](const std::string& scene, bool problem, bool detected, bool fp, int64_t ns) {
    DiagnosisRecord d;
    d.scene = scene;
    d.score.has_problem = problem;
    d.score.detected = d.score.attributed = detected;
    d.score.false_positive = fp;
    d.score.stated_numbers = d.score.grounded_numbers = 2;
    d.score.answered = d.score.routed = true;
    d.elapsed_ns = ns;
    result.diagnoses.push_back(d);
  };
  add("scrolling", true, true, false, 100);
  add("scrolling", false, false, false, 300);
  add("startup", true, true, false, 200);
  std::vector<Row> rows = Summarize(result);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].scene, "scrolling");
  EXPECT_EQ(rows[0].diagnoses, 2);
  EXPECT_EQ(rows[0].with_problem, 1);
  EXPECT_EQ(rows[2].scene, "overall");
  EXPECT_EQ(rows[2].diagnoses, 3);
  EXPECT_DOUBLE_EQ(rows[2].DetectionPct(), 100.0);
  EXPECT_EQ(rows[2].max_ns, 300);
  EXPECT_TRUE(Perfect(rows));
  add("startup", true, false, true, 50);
  rows = Summarize(result);
  EXPECT_FALSE(Perfect(rows));
  EXPECT_EQ(rows.back().false_positives, 1);
  EXPECT_NE(RenderTable(result, rows, false).find("| startup"), std::string::npos);
  EXPECT_NE(RenderJson(result, rows).find("\"false_positives\""), std::string::npos);
}

}  // namespace
}  // namespace tw::eval
