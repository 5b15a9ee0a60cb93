// `tracewise analyze` and `tracewise chat` with an LLM configured only through the environment,
// run as processes against the scripted loopback server speaking the Anthropic / OpenAI
// streaming protocols: the answer streams to stdout, the tools run on the trace, follow-ups in
// chat carry the conversation, and --offline ignores the model.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/llm/scripted_llm_server.h"
#include "tests/llm/wire_scripts.h"
#include "tools/synth/sched_trace_writer.h"
#include "tools/tracegen/tracegen.h"
#include "tests/common/process_temp_dir.h"

namespace tw::cli {
namespace {

using llm::testing::AnthropicTurn;
using llm::testing::OpenAiText;
using llm::testing::OpenAiToolCalls;
using llm::testing::ScriptedLlmServer;
using json = nlohmann::json;

struct CliRun {
  int exit_code = -1;
  std::string out;  // stdout
};

class CliAgentTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    trace_ = new std::string(::tw::testing::ProcessTempDir() + "/cli_agent_test.pftrace");
    synth::SchedTraceOptions o;
    o.cpus = 4;
    o.duration_ns = 500'000'000;
    o.processes = 5;
    o.threads = 20;
    ASSERT_TRUE(synth::WriteSyntheticSchedTrace(o, *trace_).ok());
  }
  static void TearDownTestSuite() { delete trace_; }

  // Runs the CLI with only the given LLM environment; `input` goes to stdin.
  CliRun Tracewise(const std::string& env, const std::string& args, const std::string& input = "") {
    const std::string in_file = ::tw::testing::ProcessTempDir() + "/cli_agent_stdin.txt";
    std::ofstream(in_file) << input;
    const std::string cmd =
        "env -u TRACEWISE_LLM_PROVIDER -u TRACEWISE_LLM_MODEL -u TRACEWISE_LLM_BASE_URL "
        "-u TRACEWISE_LLM_API_KEY -u TRACEWISE_LLM_CONFIG -u OPENAI_API_KEY -u ANTHROPIC_API_KEY " +
        env + " " TW_TRACEWISE_BIN " " + args + " --skills " TW_SOURCE_DIR "/skills --strategies " +
        TW_SOURCE_DIR "/strategies < " + in_file + " 2>/dev/null";
    CliRun run;
    FILE* pipe = popen(cmd.c_str(), "r");
    if (pipe == nullptr) return run;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) run.out.append(buf, n);
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
  }

  std::string Env(const std::string& provider) {
    return "TRACEWISE_LLM_PROVIDER=" + provider + " TRACEWISE_LLM_MODEL=test-model " +
           "TRACEWISE_LLM_API_KEY=sk-cli TRACEWISE_LLM_RETRY_BACKOFF_MS=1 TRACEWISE_LLM_BASE_URL=" +
           server_.BaseUrl() + (provider == "openai" ? "/v1" : "");
  }

  static std::string* trace_;
  ScriptedLlmServer server_;
};

std::string* CliAgentTest::trace_ = nullptr;

TEST_F(CliAgentTest, AnalyzeStreamsTheAgentsAnswer) {
  server_.Enqueue(AnthropicTurn("Counting.", {{"toolu_1", "execute_sql",
                                               R"({"sql": "SELECT COUNT(*) AS n FROM thread"})"}}));
  server_.Enqueue(AnthropicTurn("The trace holds the threads counted in sql-1.", {}));
  const CliRun run = Tracewise(Env("anthropic"), "analyze " + *trace_ + " 'how many threads are there?'");
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("The trace holds the threads counted in sql-1."), std::string::npos) << run.out;
  const auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 2u);
  const json second = json::parse(requests[1].body);
  // The tool really ran on the trace: its result (a count) went back to the model.
  const std::string result = second["messages"].back()["content"][0]["content"].dump();
  EXPECT_NE(result.find("sql-1"), std::string::npos) << result;
  // The per-trace context probes are in the system prompt.
  EXPECT_NE(second["system"].dump().find("Duration"), std::string::npos);
}

TEST_F(CliAgentTest, AnalyzeJsonAndOfflineOverride) {
  server_.Enqueue(OpenAiText("## Summary\nNothing stands out."));
  const std::string out = ::tw::testing::ProcessTempDir() + "/cli_agent_report.json";
  CliRun run = Tracewise(Env("openai"), "analyze " + *trace_ + " 'how many CPUs does it use?' --format json --out " + out);
  EXPECT_EQ(run.exit_code, 0);
  std::ifstream file(out);
  const json report = json::parse(file, nullptr, false);
  ASSERT_FALSE(report.is_discarded());
  EXPECT_FALSE(report["deterministic"].get<bool>());
  EXPECT_EQ(report["overview"], "Nothing stands out.");
  // --offline: the model is not called at all.
  run = Tracewise(Env("openai"), "analyze " + *trace_ + " 'which threads use the most CPU?' --offline");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("deterministic (offline analyst"), std::string::npos);
  EXPECT_EQ(server_.RequestCount(), 1);
}

TEST_F(CliAgentTest, ChatKeepsTheConversation) {
  server_.Enqueue(OpenAiText("First answer: four CPUs."));
  server_.Enqueue(OpenAiText("Second answer, building on the first."));
  const CliRun run = Tracewise(Env("openai"), "chat " + *trace_ + " --mode quick",
                            "how many CPUs are there?\nand how many threads?\n");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("First answer: four CPUs."), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Second answer"), std::string::npos);
  const auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 2u);
  const std::string second = json::parse(requests[1].body)["messages"].dump();
  EXPECT_NE(second.find("how many CPUs are there?"), std::string::npos);
  EXPECT_NE(second.find("First answer: four CPUs."), std::string::npos);
}

}  // namespace
}  // namespace tw::cli

namespace tw::cli {
namespace {

// Without --skills/--strategies and from an unrelated working directory, a build-tree binary
// still finds the checkout's skills and strategies (walking up from the executable).
TEST(CliResourcesTest, FindsTheShippedSkillsAndStrategiesFromAnyDirectory) {
  const std::string trace = ::tw::testing::ProcessTempDir() + "/cli_resources_test.pftrace";
  synth::SchedTraceOptions o;
  o.cpus = 2;
  o.duration_ns = 200'000'000;
  ASSERT_TRUE(synth::WriteSyntheticSchedTrace(o, trace).ok());
  const std::string cmd = "cd / && env -u TRACEWISE_SKILLS_DIR -u TRACEWISE_STRATEGIES_DIR " TW_TRACEWISE_BIN
                          " analyze --offline " + trace + " 'which threads keep the CPUs busy?' 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ASSERT_EQ(pclose(pipe), 0) << out;
  EXPECT_EQ(out.find("unknown skill"), std::string::npos) << out;
  EXPECT_NE(out.find("**Scene:** cpu"), std::string::npos) << out;
  EXPECT_NE(out.find("| cpu_top_threads | ok |"), std::string::npos) << out;
}

}  // namespace
}  // namespace tw::cli

namespace tw::cli {
namespace {

// `analyze --reference`: the offline analyst diagnoses the first trace and adds the scene's key
// numbers on both, here a binder-jank scroll against a smooth one (their manifests give the
// app's late frames). The same through the services and an orchestrator:
// tests/services/analyze_through_orchestrator_test.cc.
TEST(CliComparisonTest, OfflineAnalyzeComparesWithAReferenceTrace) {
  const std::string dir = ::tw::testing::ProcessTempDir();
  auto generate = [&](const char* scenario) {
    tracegen::TracegenOptions o;
    o.scenario = scenario;
    o.seed = 7;
    o.fps = 90;
    o.duration_s = 3;
    auto truth = tracegen::GenerateTrace(o, dir + "/" + scenario + ".cli.pftrace");
    EXPECT_TRUE(truth.ok()) << truth.status();
    return truth.ok() ? *truth : tracegen::GroundTruth{};
  };
  const tracegen::GroundTruth jank = generate("scroll_binder_jank");
  const tracegen::GroundTruth smooth = generate("scroll_smooth");
  ASSERT_GT(jank.frames_app_deadline_missed, 0);
  const std::string cmd = std::string(TW_TRACEWISE_BIN) + " analyze --offline " + dir +
                          "/scroll_binder_jank.cli.pftrace 'why does scrolling stutter?' --reference " +
                          dir + "/scroll_smooth.cli.pftrace 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ASSERT_EQ(pclose(pipe), 0) << out;
  EXPECT_NE(out.find("are binder"), std::string::npos) << out;  // the diagnosis itself
  const size_t section = out.find("## Comparison with the reference trace");
  ASSERT_NE(section, std::string::npos) << out;
  const std::string late = std::to_string(jank.frames_app_deadline_missed);
  const std::string expected = "app_janky_frames: " + late + " vs " +
                               std::to_string(smooth.frames_app_deadline_missed) + " (+" +
                               std::to_string(jank.frames_app_deadline_missed -
                                              smooth.frames_app_deadline_missed) + ")";
  EXPECT_NE(out.find(expected, section), std::string::npos) << expected << "\n" << out.substr(section);
}

}  // namespace
}  // namespace tw::cli
