// The verifier as a real process: records round-trip through the wire unchanged in meaning (the
// remote verdict equals the in-process one), a broken record fails with the right issues, and an
// unreachable verifier never passes an analysis.
#include <gtest/gtest.h>

#include "libs/rpc/grpc_verifier_client.h"
#include "libs/verify/verifier.h"
#include "tests/services/service_process.h"

namespace tw {
namespace {

verify::AnalysisRecord Record() {
  verify::AnalysisRecord r;
  r.scene = "scrolling";
  r.requirements.plan_aspects = {"frame overview"};
  r.requirements.mandatory_phases = {"overview"};
  r.plan.present = true;
  r.plan.covered_aspects = {"frame overview"};
  r.plan.phases = {{"overview", "done", ""}};
  verify::Artifact a;
  a.id = "a1";
  a.columns = {{"frames", verify::ColumnUnit::kNumber}, {"janky", verify::ColumnUnit::kNumber},
               {"worst", verify::ColumnUnit::kDurationNs}};
  a.rows = {{int64_t{412}, int64_t{38}, int64_t{31'200'000}}};
  a.parameters = {int64_t{4242}};
  r.artifacts = {a};
  r.tool_calls = {{"invoke_skill", "frame_overview", true, {"a1"}},
                  {"invoke_skill", "frame_detail", true, {"a1"}}};
  r.hypotheses = {{"H1", "binder", verify::HypothesisStatus::kConfirmed, {"a1"}}};
  r.findings = {{"F1", verify::Severity::kHigh, "Janky frames",
                 "38 of 412 frames janky (9.2 %), worst 31.2 ms, upid 4242.", {"a1"}}};
  r.conclusion = "Frames are janky.";
  return r;
}

TEST(VerifierServiceTest, RemoteVerdictMatchesInProcess) {
  testing::ServiceProcess server(TW_VERIFIER_BINARY, {});
  ASSERT_TRUE(server.ok());
  auto client_holder = std::make_unique<rpc::GrpcVerifierClient>(server.address());
  rpc::GrpcVerifierClient& client = *client_holder;
  verify::AnalysisRecord good = Record();
  verify::VerifyResult remote = client.Verify(good);
  EXPECT_TRUE(remote.passed());
  EXPECT_EQ(remote.issues.size(), verify::Verify(good).issues.size());

  verify::AnalysisRecord broken = Record();
  broken.findings[0].description = "52 of 412 frames janky.";
  broken.hypotheses[0].status = verify::HypothesisStatus::kOpen;
  remote = client.Verify(broken);
  const verify::VerifyResult local = verify::Verify(broken);
  EXPECT_FALSE(remote.passed());
  ASSERT_EQ(remote.issues.size(), local.issues.size());
  for (size_t i = 0; i < local.issues.size(); ++i) {
    EXPECT_EQ(remote.issues[i].kind, local.issues[i].kind);
    EXPECT_EQ(remote.issues[i].message, local.issues[i].message);
    EXPECT_EQ(remote.issues[i].severity, local.issues[i].severity);
  }
  client_holder.reset();  // an open channel would hold the graceful shutdown
  EXPECT_EQ(server.Stop(), 0);
}

TEST(VerifierServiceTest, AnUnreachableVerifierNeverPasses) {
  rpc::GrpcVerifierClient client("127.0.0.1:1");
  verify::VerifyResult result = client.Verify(Record());
  EXPECT_FALSE(result.passed());
  ASSERT_EQ(result.issues.size(), 1u);
  EXPECT_EQ(result.issues[0].kind, "verifier_unavailable");
}

}  // namespace
}  // namespace tw
