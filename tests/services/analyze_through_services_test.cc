// The offline analyst run through the three services as real processes (trace-query holds the
// trace, skill-engine runs the skills against it, the verifier checks the report) reaches the
// same diagnosis as the embedded run on the same trace; `tracewise analyze --services` does the
// same from the command line; and a dead skill-engine turns into failed steps, not a crash.

#include <grpcpp/grpcpp.h>

#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"
#include "libs/agent/offline_analyst.h"
#include "libs/rpc/grpc_query_backend.h"
#include "libs/rpc/grpc_skill_runner.h"
#include "libs/rpc/grpc_verifier_client.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tests/services/service_process.h"
#include "tools/synth/sched_trace_writer.h"
#include "tests/common/process_temp_dir.h"

namespace tw::agent {
namespace {

constexpr char kQuestion[] = "which threads use the most CPU?";

std::vector<std::string> FindingTitles(const AnalysisReport& report) {
  std::vector<std::string> titles;
  for (const auto& f : report.findings) titles.push_back(f.title);
  return titles;
}

class AnalyzeThroughServicesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(::tw::testing::ProcessTempDir() + "/analyze_through_services_test");
    std::filesystem::remove_all(*dir_);
    std::filesystem::create_directories(*dir_);
    synth::SchedTraceOptions o;
    o.cpus = 4;
    o.duration_ns = 1'000'000'000;
    o.processes = 8;
    o.threads = 40;
    o.print_rate_hz = 200;
    trace_path_ = new std::string(*dir_ + "/sched.pftrace");
    ASSERT_TRUE(synth::WriteSyntheticSchedTrace(o, *trace_path_).ok());
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete trace_path_;
  }

  void SetUp() override {
    trace_query_ = std::make_unique<testing::ServiceProcess>(
        TW_TRACE_QUERY_BINARY, std::vector<std::string>{"--data-dir", *dir_ + "/store"});
    ASSERT_TRUE(trace_query_->ok()) << "trace-query did not start";
    skill_engine_ = std::make_unique<testing::ServiceProcess>(
        TW_SKILL_ENGINE_BINARY,
        std::vector<std::string>{"--trace-query", trace_query_->address(), "--skills",
                                 TW_SOURCE_DIR "/skills"});
    ASSERT_TRUE(skill_engine_->ok()) << "skill-engine did not start";
    verifier_ = std::make_unique<testing::ServiceProcess>(TW_VERIFIER_BINARY,
                                                          std::vector<std::string>{});
    ASSERT_TRUE(verifier_->ok()) << "verifier did not start";
    auto strategies = strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies");
    ASSERT_TRUE(strategies.ok()) << strategies.status();
    strategies_ = std::make_unique<strategy::StrategyLibrary>(std::move(*strategies));
  }

  AnalysisReport Embedded() {
    std::vector<skills::Diagnostic> diagnostics;
    const auto library = skills::SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diagnostics);
    auto trace = LoadTraceFile(*trace_path_);
    EXPECT_TRUE(trace.ok()) << trace.status();
    skills::TraceDatabaseRunner queries(&(*trace)->db());
    LocalSkillRunner runner(library, queries);
    verify::LocalVerifierClient verifier;
    return OfflineAnalyst(*strategies_, runner, &verifier).Analyze(kQuestion, *trace_path_);
  }

  std::string Upload() {
    rpc::GrpcQueryBackend uploader(trace_query_->address());
    auto id = uploader.UploadFile(*trace_path_);
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? *id : "";
  }

  static std::string* dir_;
  static std::string* trace_path_;
  std::unique_ptr<testing::ServiceProcess> trace_query_;
  std::unique_ptr<testing::ServiceProcess> skill_engine_;
  std::unique_ptr<testing::ServiceProcess> verifier_;
  std::unique_ptr<strategy::StrategyLibrary> strategies_;
};

std::string* AnalyzeThroughServicesTest::dir_ = nullptr;
std::string* AnalyzeThroughServicesTest::trace_path_ = nullptr;

TEST_F(AnalyzeThroughServicesTest, SameDiagnosisAsEmbedded) {
  const AnalysisReport local = Embedded();
  ASSERT_FALSE(local.steps.empty());
  const std::string id = Upload();
  ASSERT_FALSE(id.empty());
  AnalysisReport remote;
  {
    rpc::GrpcSkillRunner runner(skill_engine_->address(), id);
    rpc::GrpcVerifierClient verifier(verifier_->address());
    remote = OfflineAnalyst(*strategies_, runner, &verifier).Analyze(kQuestion, id);
  }
  EXPECT_EQ(remote.scene, local.scene);
  EXPECT_EQ(remote.verified, local.verified);
  EXPECT_EQ(FindingTitles(remote), FindingTitles(local));
  ASSERT_EQ(remote.steps.size(), local.steps.size());
  for (size_t i = 0; i < local.steps.size(); ++i) {
    EXPECT_EQ(remote.steps[i].skill, local.steps[i].skill) << i;
    EXPECT_EQ(remote.steps[i].status, local.steps[i].status) << remote.steps[i].skill;
  }
  EXPECT_EQ(remote.recommendations, local.recommendations);
  EXPECT_EQ(remote.artifacts.size(), local.artifacts.size());
  for (size_t i = 0; i < local.artifacts.size() && i < remote.artifacts.size(); ++i) {
    EXPECT_EQ(remote.artifacts[i]->rows.size(), local.artifacts[i]->rows.size()) << i;
  }
}

TEST_F(AnalyzeThroughServicesTest, CliAnalyzeWithServicesPrintsTheSameFindings) {
  const AnalysisReport local = Embedded();
  const std::string out = *dir_ + "/report.json";
  const std::string cmd = std::string(TW_TRACEWISE_BINARY) + " analyze " + *trace_path_ + " '" +
                          kQuestion + "' --offline --format json --quiet --out " + out + " --services " +
                          trace_query_->address() + "," + skill_engine_->address() + "," +
                          verifier_->address();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::FILE* f = std::fopen(out.c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string text;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  std::fclose(f);
  const auto json = nlohmann::json::parse(text, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << text.substr(0, 200);
  EXPECT_EQ(json.value("scene", ""), local.scene);
  std::vector<std::string> titles;
  for (const auto& finding : json["findings"]) titles.push_back(finding.value("title", ""));
  EXPECT_EQ(titles, FindingTitles(local));
}

TEST_F(AnalyzeThroughServicesTest, DeadSkillEngineGivesFailedStepsNotACrash) {
  const std::string id = Upload();
  ASSERT_FALSE(id.empty());
  const std::string address = skill_engine_->address();
  skill_engine_->Kill();
  rpc::GrpcSkillRunner runner(address, id);
  verify::LocalVerifierClient verifier;
  const AnalysisReport report = OfflineAnalyst(*strategies_, runner, &verifier).Analyze(kQuestion, id);
  ASSERT_FALSE(report.steps.empty());
  // Every step that ran failed with the transport's status; a step whose condition reads an
  // earlier (failed) step's result is skipped, never run on missing data.
  int failed = 0;
  for (const AnalysisStep& step : report.steps) {
    if (step.status == "skipped") {
      EXPECT_NE(step.message.find("condition"), std::string::npos) << step.skill << ": " << step.message;
      continue;
    }
    ++failed;
    EXPECT_EQ(step.status, "failed") << step.skill;
    EXPECT_NE(step.message.find("UNAVAILABLE"), std::string::npos) << step.skill << ": " << step.message;
  }
  EXPECT_GT(failed, 0);
  EXPECT_TRUE(report.findings.empty());
}

}  // namespace
}  // namespace tw::agent
