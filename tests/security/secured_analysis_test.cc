// The end-to-end analysis with authentication and mTLS on: the offline analyst through
// trace-query + skill-engine + verifier processes (each requiring tokens and client
// certificates) reaches the same diagnosis as in process, and so does `tracewise analyze
// --services` given TRACEWISE_TOKEN and TRACEWISE_TLS_*. Without the token the CLI fails
// cleanly.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "libs/agent/offline_analyst.h"
#include "libs/rpc/channel_security.h"
#include "libs/rpc/grpc_query_backend.h"
#include "libs/rpc/grpc_skill_runner.h"
#include "libs/rpc/grpc_verifier_client.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tests/security/security_env.h"
#include "tools/synth/sched_trace_writer.h"

namespace tw::agent {
namespace {

constexpr char kQuestion[] = "which threads use the most CPU?";

std::vector<std::string> Titles(const AnalysisReport& report) {
  std::vector<std::string> titles;
  for (const auto& f : report.findings) titles.push_back(f.title);
  return titles;
}

class SecuredAnalysisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    env_ = std::make_unique<testing::SecurityEnv>("tw-secured-e2e");
    ASSERT_TRUE(env_->ok());
    synth::SchedTraceOptions o;
    o.cpus = 4;
    o.duration_ns = 1'000'000'000;
    o.processes = 8;
    o.threads = 40;
    trace_ = env_->dir() + "/sched.pftrace";
    ASSERT_TRUE(synth::WriteSyntheticSchedTrace(o, trace_).ok());
    auto* tq = env_->Start(TW_TRACE_QUERY_BINARY, {"--data-dir", env_->dir() + "/store"});
    ASSERT_NE(tq, nullptr);
    tq_ = tq->address();
    auto* se = env_->Start(TW_SKILL_ENGINE_BINARY, {"--trace-query", tq_, "--skills", TW_SOURCE_DIR "/skills"});
    ASSERT_NE(se, nullptr);
    se_ = se->address();
    auto* v = env_->Start(TW_VERIFIER_BINARY, {});
    ASSERT_NE(v, nullptr);
    verifier_ = v->address();
    auto strategies = strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies");
    ASSERT_TRUE(strategies.ok());
    strategies_ = std::make_unique<strategy::StrategyLibrary>(std::move(*strategies));
  }
  void TearDown() override { (void)rpc::SetClientSecurity({}); }

  // This process as a client: mTLS with the test CA's client certificate.
  void BeClient(const std::string& bearer) {
    rpc::ClientSecurity client;
    client.tls.ca = env_->pki().ca_cert;
    client.tls.cert = env_->pki().client_cert;
    client.tls.key = env_->pki().client_key;
    client.authorization = bearer;
    ASSERT_TRUE(rpc::SetClientSecurity(client).ok());
  }

  AnalysisReport Embedded() {
    std::vector<skills::Diagnostic> diagnostics;
    const auto library = skills::SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diagnostics);
    auto trace = LoadTraceFile(trace_);
    EXPECT_TRUE(trace.ok());
    skills::TraceDatabaseRunner queries(&(*trace)->db());
    LocalSkillRunner runner(library, queries);
    verify::LocalVerifierClient verifier;
    return OfflineAnalyst(*strategies_, runner, &verifier).Analyze(kQuestion, trace_);
  }

  int Cli(const std::string& env, const std::string& out) {
    const std::string cmd = env + " " + TW_TRACEWISE_BINARY + " analyze " + trace_ + " '" + kQuestion +
                            "' --offline --format json --quiet --out " + out + " --services " + tq_ +
                            "," + se_ + "," + verifier_ + " 2>" + out + ".err";
    return std::system(cmd.c_str());
  }

  std::unique_ptr<testing::SecurityEnv> env_;
  std::string trace_, tq_, se_, verifier_;
  std::unique_ptr<strategy::StrategyLibrary> strategies_;
};

TEST_F(SecuredAnalysisTest, SameDiagnosisAsEmbeddedThroughAuthenticatedMtlsServices) {
  const AnalysisReport local = Embedded();
  BeClient(env_->Bearer("alpha", "uploader"));
  rpc::GrpcQueryBackend uploader(tq_);
  auto id = uploader.UploadFile(trace_);
  ASSERT_TRUE(id.ok()) << id.status();
  AnalysisReport remote;
  {
    rpc::GrpcSkillRunner runner(se_, *id);
    rpc::GrpcVerifierClient verifier(verifier_);
    remote = OfflineAnalyst(*strategies_, runner, &verifier).Analyze(kQuestion, *id);
  }
  EXPECT_EQ(remote.scene, local.scene);
  EXPECT_EQ(remote.verified, local.verified);
  EXPECT_EQ(Titles(remote), Titles(local));
  ASSERT_EQ(remote.steps.size(), local.steps.size());
  for (size_t i = 0; i < local.steps.size(); ++i) {
    EXPECT_EQ(remote.steps[i].status, local.steps[i].status) << remote.steps[i].skill << ": " << remote.steps[i].message;
  }
  // Another tenant's token reaches nothing of it: every step that runs fails NOT_FOUND (a drill
  // whose condition reads an earlier, failed step's rows is skipped, never run).
  BeClient(env_->Bearer("beta", "admin"));
  rpc::GrpcSkillRunner runner(se_, *id);
  verify::LocalVerifierClient verifier;
  const AnalysisReport stolen = OfflineAnalyst(*strategies_, runner, &verifier).Analyze(kQuestion, *id);
  ASSERT_FALSE(stolen.steps.empty());
  int failed = 0;
  for (const AnalysisStep& step : stolen.steps) {
    if (step.status == "skipped") {
      EXPECT_EQ(step.message, "condition not met") << step.skill;
      continue;
    }
    ++failed;
    EXPECT_EQ(step.status, "failed") << step.skill;
    EXPECT_NE(step.message.find("NOT_FOUND"), std::string::npos) << step.message;
  }
  EXPECT_GT(failed, 0);
  EXPECT_TRUE(stolen.findings.empty());
}

TEST_F(SecuredAnalysisTest, CliAnalyzeWithServicesUsesTokenAndTlsFromTheEnvironment) {
  const AnalysisReport local = Embedded();
  const std::string key = env_->Bearer("alpha", "uploader").substr(7);
  const std::string tls = "TRACEWISE_TLS_CA=" + env_->pki().ca_cert + " TRACEWISE_TLS_CERT=" +
                          env_->pki().client_cert + " TRACEWISE_TLS_KEY=" + env_->pki().client_key;
  const std::string out = env_->dir() + "/report.json";
  ASSERT_EQ(Cli(tls + " TRACEWISE_TOKEN=" + key, out), 0) << testing::ReadText(out + ".err");
  const auto json = nlohmann::json::parse(testing::ReadText(out), nullptr, false);
  ASSERT_FALSE(json.is_discarded());
  EXPECT_EQ(json.value("scene", ""), local.scene);
  std::vector<std::string> titles;
  for (const auto& finding : json["findings"]) titles.push_back(finding.value("title", ""));
  EXPECT_EQ(titles, Titles(local));

  // No token, or no client certificate: refused, and the CLI says why.
  EXPECT_NE(Cli(tls, env_->dir() + "/none.json"), 0);
  EXPECT_NE(testing::ReadText(env_->dir() + "/none.json.err").find("authentication required"), std::string::npos)
      << testing::ReadText(env_->dir() + "/none.json.err");
  EXPECT_NE(Cli("TRACEWISE_TLS_CA=" + env_->pki().ca_cert + " TRACEWISE_TOKEN=" + key,
                env_->dir() + "/nocert.json"),
            0);
}

}  // namespace
}  // namespace tw::agent
