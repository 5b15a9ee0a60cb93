// The offline analyst against ground truth: every tracegen scenario is generated (small), loaded
// and analysed with the shipped strategies and skills, and the diagnosis must name the problem
// that was injected — binder, GPU wait, CPU contention, GC, lock contention, a thermal cap, the
// startup type and duration, slow I/O, the ANR's blocking thread — or, for the smooth baseline,
// find no serious problem. Every report must pass the verifier.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "libs/agent/offline_analyst.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tools/tracegen/tracegen.h"
#include "tests/common/process_temp_dir.h"

namespace tw::agent {
namespace {

struct Case {
  const char* scenario;
  const char* question;
  const char* scene;
  // The diagnosis (top findings and causal chain) must mention one of these; empty = the
  // scenario has no problem, so no finding may be critical or high.
  std::vector<std::string> any_of;
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.scenario; }

constexpr char kScroll[] = "why does scrolling stutter?";
constexpr char kStartup[] = "why is the app start slow?";

const Case kCases[] = {
    {"scroll_smooth", kScroll, "scrolling", {}},
    {"scroll_binder_jank", kScroll, "scrolling", {"binder"}},
    {"scroll_renderthread_gpu", kScroll, "scrolling", {"render_thread", "renderthread", "dequeuebuffer"}},
    {"scroll_cpu_contention", kScroll, "scrolling", {"runnable"}},
    {"scroll_gc_pressure", kScroll, "scrolling", {" gc", "garbage"}},
    {"scroll_lock_contention", kScroll, "scrolling", {"lock", "monitor contention"}},
    {"scroll_thermal", kScroll, "scrolling", {"capped"}},
    {"startup_cold", kStartup, "startup", {"cold startup"}},
    {"startup_cold_slow_io", kStartup, "startup", {"i/o", "io blocked"}},
    {"startup_warm", kStartup, "startup", {"warm startup"}},
    {"anr_main_thread_blocked", "what caused this ANR?", "anr", {"pool-3-thread-1"}},
};

// Findings (the first `top`) and the causal chain, lower-cased.
std::string Diagnosis(const AnalysisReport& report, size_t top) {
  std::string text;
  for (size_t i = 0; i < report.findings.size() && i < top; ++i) {
    text += " " + report.findings[i].title + " — " + report.findings[i].description + "\n";
  }
  for (const CausalLink& link : report.causal_chain) text += " " + link.statement + "\n";
  return absl::AsciiStrToLower(text);
}

// Generates `scenario` (seed 11, 90 Hz; scrolls 3 s) and analyses it offline with the shipped
// strategies and skills, as `tracewise analyze` does.
AnalysisReport AnalyzeScenario(const char* scenario, const char* question,
                               tracegen::GroundTruth* truth_out) {
  const std::string path =
      (std::filesystem::path(::tw::testing::ProcessTempDir()) / (std::string(scenario) + ".pftrace")).string();
  tracegen::TracegenOptions options;
  options.scenario = scenario;
  options.seed = 11;
  options.fps = 90;
  if (std::string(scenario).rfind("scroll_", 0) == 0) options.duration_s = 3;
  auto truth = tracegen::GenerateTrace(options, path);
  EXPECT_TRUE(truth.ok()) << truth.status();
  if (!truth.ok()) return {};
  *truth_out = *truth;

  std::vector<skills::Diagnostic> diagnostics;
  const auto library = skills::SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diagnostics);
  auto strategies = strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies");
  EXPECT_TRUE(strategies.ok()) << strategies.status();
  auto trace = LoadTraceFile(path);
  EXPECT_TRUE(trace.ok()) << trace.status();
  if (!strategies.ok() || !trace.ok()) return {};
  skills::TraceDatabaseRunner queries(&(*trace)->db());
  LocalSkillRunner runner(library, queries);
  verify::LocalVerifierClient verifier;
  return OfflineAnalyst(*strategies, runner, &verifier).Analyze(question, path);
}

class AnalyzeScenariosTest : public ::testing::TestWithParam<Case> {};

TEST_P(AnalyzeScenariosTest, DiagnosisNamesTheInjectedProblem) {
  const Case& c = GetParam();
  tracegen::GroundTruth truth_value;
  const tracegen::GroundTruth* truth = &truth_value;
  const AnalysisReport report = AnalyzeScenario(c.scenario, c.question, &truth_value);

  EXPECT_EQ(report.scene, c.scene);
  EXPECT_TRUE(report.verified);
  for (const auto& issue : report.verifier_issues) {
    EXPECT_NE(issue.severity, verify::IssueSeverity::kError) << issue.kind << ": " << issue.message;
  }
  for (const AnalysisStep& step : report.steps) {
    EXPECT_NE(step.status, "failed") << step.skill << ": " << step.message;
  }
  const std::string text = Diagnosis(report, 3);
  if (c.any_of.empty()) {
    for (const ReportFinding& f : report.findings) {
      EXPECT_GT(f.severity, FindingSeverity::kHigh) << "a smooth scroll reported: " << f.title;
    }
    return;
  }
  bool named = false;
  for (const std::string& word : c.any_of) named |= text.find(word) != std::string::npos;
  EXPECT_TRUE(named) << "the diagnosis does not name the injected problem:\n" << text;

  if (!truth->startup_type.empty()) {  // the startup's duration, as trace_processor would give it
    const std::string ms = std::to_string(truth->startup_dur / 1'000'000);
    EXPECT_NE(Diagnosis(report, 8).find(ms + "."), std::string::npos)
        << "startup of " << ms << " ms not stated:\n" << Diagnosis(report, 8);
  }
}

INSTANTIATE_TEST_SUITE_P(Tracegen, AnalyzeScenariosTest, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.scenario; });

// The causal chain goes step by step: the symptom, the classification that triggered the drill,
// then what the drill found — not from the symptom straight to the detail.
TEST(AnalyzeScenariosChainTest, ChainsPassThroughTheClassificationToTheDrill) {
  struct Expected {
    const char* scenario;
    std::vector<std::string> in_order;  // lower-case fragments, each in a later link
  };
  for (const Expected& e : std::vector<Expected>{
           {"scroll_binder_jank", {"are binder", "system_server"}},
           {"scroll_cpu_contention", {"frames janky", "are cpu_runnable", "runnable"}}}) {
    tracegen::GroundTruth truth;
    const AnalysisReport report = AnalyzeScenario(e.scenario, kScroll, &truth);
    size_t link = 0;
    for (const std::string& fragment : e.in_order) {
      while (link < report.causal_chain.size() &&
             absl::AsciiStrToLower(report.causal_chain[link].statement).find(fragment) == std::string::npos) {
        ++link;
      }
      EXPECT_LT(link, report.causal_chain.size()) << e.scenario << ": no later link states '" << fragment
                                                  << "':\n" << Diagnosis(report, 0);
      ++link;
    }
  }
}

}  // namespace
}  // namespace tw::agent
