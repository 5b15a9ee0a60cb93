// `analyze` on every real Perfetto trace in ../shared/traces/perfetto, for a question of every
// scene, with the shipped strategies and skills: each completes with a coherent report (an
// overview, phases, no failed step) that the verifier passes, or says precisely what is missing.
#include <gtest/gtest.h>

#include <filesystem>

#include "libs/agent/offline_analyst.h"
#include "libs/agent/report_render.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"

namespace tw::agent {
namespace {

namespace fs = std::filesystem;

const std::string kTraceDir = TW_SHARED_DIR "/traces/perfetto";

const char* const kQuestions[] = {
    "why does scrolling stutter?", "why is cold start slow?",   "what caused this ANR?",
    "tapping a button responds slowly", "is there a memory leak?", "which threads use the most CPU?",
    "what drains the battery?",   "give me an overview of this trace"};

class AnalyzeRealTracesTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AnalyzeRealTracesTest, EveryScenePassesTheVerifierWithoutFailedSteps) {
  if (!fs::is_directory(kTraceDir)) GTEST_SKIP() << kTraceDir << " is absent";
  const std::string path = kTraceDir + "/" + GetParam();
  std::vector<skills::Diagnostic> diagnostics;
  const auto library = skills::SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diagnostics);
  auto strategies = strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies");
  ASSERT_TRUE(strategies.ok()) << strategies.status();
  auto trace = LoadTraceFile(path);
  ASSERT_TRUE(trace.ok()) << trace.status();
  skills::TraceDatabaseRunner queries(&(*trace)->db());
  LocalSkillRunner runner(library, queries);
  verify::LocalVerifierClient verifier;
  OfflineAnalyst analyst(*strategies, runner, &verifier);
  std::set<std::string> scenes;
  for (const char* question : kQuestions) {
    const AnalysisReport report = analyst.Analyze(question, path);
    scenes.insert(report.scene);
    EXPECT_FALSE(report.overview.empty()) << question;
    EXPECT_FALSE(report.steps.empty()) << question;
    for (const AnalysisStep& step : report.steps) {
      EXPECT_NE(step.status, "failed") << question << ": " << step.id << ": " << step.message;
    }
    for (const auto& issue : report.verifier_issues) {
      EXPECT_NE(issue.severity, verify::IssueSeverity::kError)
          << question << ": " << issue.kind << ": " << issue.message;
    }
    EXPECT_TRUE(report.verified) << question;
    // A report that found nothing says so plainly, or says what it could not check.
    if (report.findings.empty()) {
      EXPECT_TRUE(!report.limits.empty() ||
                  report.overview.find("No problem was found") != std::string::npos)
          << question << ": " << report.overview;
    }
    EXPECT_NE(RenderMarkdown(report).find("## Overview"), std::string::npos);
  }
  EXPECT_EQ(scenes.size(), 8u);  // every question reached its own scene
}

std::vector<std::string> Traces() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(kTraceDir, ec)) out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  if (out.empty()) out.push_back("absent");  // one skipped instance when ../shared is missing
  return out;
}

INSTANTIATE_TEST_SUITE_P(Perfetto, AnalyzeRealTracesTest, ::testing::ValuesIn(Traces()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace tw::agent
