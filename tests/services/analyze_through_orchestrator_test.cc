// `tracewise analyze --orchestrator HOST:PORT`: the CLI as a client of a deployment through one
// address (the trace goes up through Orchestrator.UploadTrace, the turn runs there), against
// trace-query, skill-engine, verifier and orchestrator as processes with no LLM configured. On
// every tracegen scenario (each its own seed, frame rate and phrasing) the report equals the
// embedded run's, field for field but the timings; the same with --reference, and with
// --services, which now compares too. A selection scopes the remote turn as it does the local one.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/common/process_temp_dir.h"
#include "tests/services/orchestrator_test_env.h"
#include "tools/tracegen/tracegen.h"

namespace tw::testing {
namespace {

using json = nlohmann::json;

// Timings differ run to run; everything else must not.
void StripTimings(json& j) {
  if (j.is_object()) {
    j.erase("elapsed_ns");
    for (auto& [key, value] : j.items()) StripTimings(value);
  } else if (j.is_array()) {
    for (auto& v : j) StripTimings(v);
  }
}

std::string QuestionFor(const std::string& scenario, int variant) {
  if (scenario.rfind("startup", 0) == 0) return variant % 2 ? "why is cold start slow?" : "app launch takes too long, why?";
  if (scenario.rfind("anr", 0) == 0) return "why did the app stop responding (ANR)?";
  return variant % 2 ? "why does scrolling stutter?" : "why does the feed drop frames?";
}

struct CliRun {
  int exit_code = -1;
  json report;
  std::string stderr_text;
};

class AnalyzeThroughOrchestratorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The orchestrator answers with the offline analyst, whatever the caller's environment says.
    for (const char* name : {"TRACEWISE_LLM_PROVIDER", "TRACEWISE_LLM_MODEL", "TRACEWISE_LLM_BASE_URL",
                             "TRACEWISE_LLM_API_KEY", "TRACEWISE_LLM_CONFIG", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"}) {
      unsetenv(name);
    }
  }

  void Start(const std::string& name) {
    env_ = std::make_unique<OrchestratorEnv>(name);
    env_->StartBackends();
    env_->StartOrchestrator();
  }

  static std::string Generate(const std::string& scenario, uint64_t seed, int fps, double seconds) {
    const std::string path = ProcessTempDir() + scenario + ".parity.pftrace";
    tracegen::TracegenOptions o;
    o.scenario = scenario;
    o.seed = seed;
    o.fps = fps;
    o.duration_s = seconds;
    auto truth = tracegen::GenerateTrace(o, path);
    EXPECT_TRUE(truth.ok()) << truth.status();
    return path;
  }

  CliRun Analyze(const std::string& args) {
    static int n = 0;
    const std::string out = ProcessTempDir() + "report_" + std::to_string(++n) + ".json";
    const std::string err = out + ".err";
    const std::string cmd = std::string(TW_TRACEWISE_BINARY) + " analyze " + args + " --format json --out " +
                            out + " --skills " TW_SOURCE_DIR "/skills --strategies " TW_SOURCE_DIR
                            "/strategies 2>" + err;
    CliRun run;
    const int status = std::system(cmd.c_str());
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(out), e(err);
    std::stringstream text, errors;
    text << in.rdbuf();
    errors << e.rdbuf();
    run.stderr_text = errors.str();
    run.report = json::parse(text.str(), nullptr, false);
    return run;
  }

  // The embedded report and the one made on the orchestrator, timings aside, are equal.
  void ExpectSameReport(const std::string& trace_args) {
    CliRun local = Analyze(trace_args + " --offline");
    CliRun remote = Analyze(trace_args + " --orchestrator " + env_->orchestrator_address());
    ASSERT_EQ(local.exit_code, 0) << local.stderr_text;
    ASSERT_EQ(remote.exit_code, 0) << remote.stderr_text;
    ASSERT_TRUE(local.report.is_object());
    ASSERT_TRUE(remote.report.is_object()) << remote.stderr_text;
    StripTimings(local.report);
    StripTimings(remote.report);
    EXPECT_FALSE(local.report["findings"].empty() && local.report["steps"].empty());
    EXPECT_EQ(remote.report.dump(1), local.report.dump(1));
  }

  std::unique_ptr<OrchestratorEnv> env_;
};

class ScenarioParityTest : public AnalyzeThroughOrchestratorTest,
                           public ::testing::WithParamInterface<std::string> {};

TEST_P(ScenarioParityTest, SameReportAsTheEmbeddedRun) {
  const std::string scenario = GetParam();
  Start("parity_" + scenario);
  // Vary seed, frame rate and phrasing per scenario; `large` is kept short.
  const size_t h = std::hash<std::string>()(scenario);
  const int fps = std::vector<int>{60, 90, 120}[h % 3];
  const std::string path = Generate(scenario, 1 + h % 97, fps, scenario == "large" ? 2.0 : 3.0);
  ExpectSameReport(path + " '" + QuestionFor(scenario, static_cast<int>(h % 2)) + "'");
}

std::vector<std::string> AllScenarios() {
  std::vector<std::string> names;
  for (const auto& s : tracegen::Scenarios()) names.push_back(s.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(EveryTracegenScenario, ScenarioParityTest, ::testing::ValuesIn(AllScenarios()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST_F(AnalyzeThroughOrchestratorTest, ComparisonIsTheSameInEveryMode) {
  Start("parity_reference");
  const std::string jank = Generate("scroll_binder_jank", 5, 90, 3.0);
  const std::string smooth = Generate("scroll_smooth", 6, 90, 3.0);
  const std::string args = jank + " 'why does scrolling stutter more than before?' --reference " + smooth;
  ExpectSameReport(args);
  CliRun remote = Analyze(args + " --orchestrator " + env_->orchestrator_address());
  ASSERT_EQ(remote.exit_code, 0) << remote.stderr_text;
  const std::string comparison = remote.report.value("comparison", "");
  EXPECT_NE(comparison.find("## Comparison with the reference trace"), std::string::npos);
  EXPECT_NE(comparison.find(smooth), std::string::npos) << "the reference is named by its file";
  EXPECT_EQ(remote.report["trace"], jank);
  // Through the services (once refused): the same comparison.
  CliRun services = Analyze(args + " --offline --services " + env_->trace_query_address() + "," +
                            env_->skill_engine_address() + "," + env_->verifier_address());
  ASSERT_EQ(services.exit_code, 0) << services.stderr_text;
  StripTimings(services.report);
  StripTimings(remote.report);
  EXPECT_EQ(services.report.dump(1), remote.report.dump(1));
}

TEST_F(AnalyzeThroughOrchestratorTest, ASelectionScopesTheRemoteTurnAsTheLocalOne) {
  Start("parity_selection");
  const std::string path = ProcessTempDir() + "contention.parity.pftrace";
  tracegen::TracegenOptions o;
  o.scenario = "scroll_cpu_contention";
  o.seed = 17;
  o.duration_s = 3;
  auto truth = tracegen::GenerateTrace(o, path);
  ASSERT_TRUE(truth.ok());
  const std::string window = std::to_string(truth->cpu_contention_from_ns) + "," +
                             std::to_string(truth->cpu_contention_to_ns);
  const std::string args = path + " 'which threads use the most CPU?' --selection " + window;
  ExpectSameReport(args);
  CliRun remote = Analyze(args + " --orchestrator " + env_->orchestrator_address());
  ASSERT_EQ(remote.exit_code, 0) << remote.stderr_text;
  EXPECT_EQ(remote.report.value("scope", "").rfind("within ", 0), 0u) << remote.report.value("scope", "");
  bool hog_on_top = false;
  for (const auto& a : remote.report["artifacts"]) {
    if (a["skill"] != "cpu_top_threads") continue;
    for (size_t c = 0; c < a["columns"].size(); ++c) {
      if (a["columns"][c]["name"] == "process_name") hog_on_top = a["rows"][0][c] == truth->cpu_hog_process;
    }
  }
  EXPECT_TRUE(hog_on_top) << "inside the contention window the hog's threads lead";
}

TEST_F(AnalyzeThroughOrchestratorTest, UploadErrorsComeBackPrecisely) {
  Start("parity_errors");
  const std::string junk = ProcessTempDir() + "junk.pftrace";
  std::ofstream(junk) << "this is not a trace at all";
  CliRun bad = Analyze(junk + " --orchestrator " + env_->orchestrator_address());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.stderr_text.find("not a trace Tracewise can read"), std::string::npos) << bad.stderr_text;
  CliRun missing = Analyze(ProcessTempDir() + "nope.pftrace --orchestrator " + env_->orchestrator_address());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.stderr_text.find("cannot read"), std::string::npos) << missing.stderr_text;
  CliRun both = Analyze(junk + " --orchestrator a:1 --offline");
  EXPECT_EQ(both.exit_code, 2);
}

}  // namespace
}  // namespace tw::testing
