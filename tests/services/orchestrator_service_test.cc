// The orchestrator with trace-query, skill-engine and verifier, all four as real processes, and
// no LLM configured (so turns run the offline analyst): sessions, numbered event streams, resume
// after a client disconnect, diagnosis jobs, precise errors, and a restart that keeps sessions.
// Each test runs plaintext with auth off, and secured (issue #16): every process with an auth
// config and mTLS, the test's calls with a client certificate and an API key.

#include "tests/security/security_env.h"
#include "tests/services/orchestrator_test_env.h"

namespace tw::testing {
namespace {

class OrchestratorServiceTest : public ::testing::TestWithParam<bool> {
 protected:
  static void TearDownTestSuite() {
    delete security_;
    security_ = nullptr;
  }
  void SetUp() override {
    env_ = std::make_unique<OrchestratorEnv>(GetParam() ? "orchestrator_service_test_secured"
                                                        : "orchestrator_service_test");
    if (GetParam()) {
      if (security_ == nullptr) security_ = new SecurityEnv("tw-orchestrator-test");
      ASSERT_TRUE(security_->ok()) << "openssl could not make the test certificates";
      const std::string bearer = security_->Bearer("alpha", "admin");
      env_->set_security({security_->SecurityFlags(), security_->pki().ca_cert,
                          security_->pki().client_cert, security_->pki().client_key,
                          bearer.substr(std::string("Bearer ").size())});
    }
    env_->StartBackends();
    env_->StartOrchestrator();
  }
  std::unique_ptr<OrchestratorEnv> env_;
  static SecurityEnv* security_;
};
SecurityEnv* OrchestratorServiceTest::security_ = nullptr;

TEST_P(OrchestratorServiceTest, AskStreamsNumberedEventsAndPersistsTurns) {
  const std::string session = env_->CreateSession();
  ASSERT_FALSE(session.empty());
  const CollectedEvents first = env_->Ask(session, "which threads use the most CPU?");
  ASSERT_TRUE(first.status.ok()) << first.status.error_message();
  ASSERT_GE(first.events.size(), 4u);
  ExpectGapless(first.events, 1);
  EXPECT_EQ(first.events.front().kind(), "progress");
  EXPECT_EQ(first.events.back().kind(), "done");
  EXPECT_GE(first.Count("progress"), 3);  // the offline notice and one per skill
  ASSERT_EQ(first.Count("conclusion"), 1);
  const auto conclusion = first.Payload("conclusion");
  EXPECT_TRUE(conclusion["deterministic"].get<bool>());
  EXPECT_NE(conclusion["answer"].get<std::string>().find("## Overview"), std::string::npos);
  for (const auto& e : first.events) {
    EXPECT_EQ(e.session_id(), session);
    EXPECT_EQ(e.turn(), 1);
    EXPECT_FALSE(nlohmann::json::parse(e.payload_json(), nullptr, false).is_discarded());
  }

  // A second turn continues the numbering.
  const CollectedEvents second = env_->Ask(session, "is the app janky while scrolling?");
  ASSERT_TRUE(second.status.ok());
  ExpectGapless(second.events, first.events.back().seq() + 1);
  EXPECT_EQ(second.events.front().turn(), 2);

  grpc::Status status;
  const pb::Session info = env_->GetSession(session, &status);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(info.trace_id(), env_->trace_id());
  ASSERT_EQ(info.turns_size(), 2);
  EXPECT_EQ(info.turns(0).status(), "done");
  EXPECT_EQ(info.turns(1).question(), "is the app janky while scrolling?");
  EXPECT_EQ(info.last_seq(), second.events.back().seq());
  EXPECT_FALSE(info.busy());
  const auto report = nlohmann::json::parse(info.turns(0).report_json());
  EXPECT_EQ(report["scene"], "cpu");
}

TEST_P(OrchestratorServiceTest, ResumeAfterDisconnectDeliversTheRest) {
  const std::string session = env_->CreateSession();
  // The client goes away after two events; the turn runs on.
  const CollectedEvents partial = env_->Ask(session, "which threads use the most CPU?", "auto", 2);
  ASSERT_EQ(partial.events.size(), 2u);
  const CollectedEvents rest = env_->Resume(session, partial.events.back().seq());
  ASSERT_TRUE(rest.status.ok()) << rest.status.error_message();
  ASSERT_FALSE(rest.events.empty());
  ExpectGapless(rest.events, 3);
  EXPECT_EQ(rest.events.back().kind(), "done");
  // A full replay gives the same events again.
  const CollectedEvents replay = env_->Resume(session, 0);
  ASSERT_EQ(replay.events.size(), rest.events.size() + 2);
  EXPECT_EQ(replay.events[2].payload_json(), rest.events[0].payload_json());
}

TEST_P(OrchestratorServiceTest, DiagnosisJobsRunWithoutStreaming) {
  grpc::ClientContext ctx;
  pb::SubmitDiagnosisRequest req;
  req.set_trace_id(env_->trace_id());
  req.set_question("which threads use the most CPU?");
  pb::DiagnosisJob job;
  ASSERT_TRUE(env_->stub().SubmitDiagnosis(&ctx, req, &job).ok());
  EXPECT_EQ(job.status(), "running");
  pb::DiagnosisJob done;
  for (int i = 0; i < 600; ++i) {
    grpc::ClientContext get_ctx;
    pb::GetDiagnosisRequest get;
    get.set_job_id(job.job_id());
    ASSERT_TRUE(env_->stub().GetDiagnosis(&get_ctx, get, &done).ok());
    if (done.status() != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(done.status(), "done");
  EXPECT_NE(done.report_markdown().find("## Overview"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(done.report_json())["scene"], "cpu");
}

TEST_P(OrchestratorServiceTest, BadRequestsGetPreciseStatuses) {
  auto create = [&](const std::string& trace_id) {
    grpc::ClientContext ctx;
    pb::CreateSessionRequest req;
    req.set_trace_id(trace_id);
    pb::Session s;
    return env_->stub().CreateSession(&ctx, req, &s).error_code();
  };
  EXPECT_EQ(create(std::string(64, '0')), grpc::StatusCode::NOT_FOUND);  // well-formed, unknown
  EXPECT_EQ(create("no-such-trace"), grpc::StatusCode::INVALID_ARGUMENT);  // not a trace id
  EXPECT_EQ(create(""), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(env_->Ask("no-such-session", "why?").status.error_code(), grpc::StatusCode::NOT_FOUND);
  const std::string session = env_->CreateSession();
  EXPECT_EQ(env_->Ask(session, "why?", "thorough").status.error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(env_->Ask(session, "").status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  {
    grpc::ClientContext ctx;
    pb::CancelTurnRequest req;
    req.set_session_id(session);
    pb::CancelTurnResponse r;
    EXPECT_EQ(env_->stub().CancelTurn(&ctx, req, &r).error_code(),
              grpc::StatusCode::FAILED_PRECONDITION);
  }
  {
    grpc::ClientContext ctx;
    pb::GetDiagnosisRequest req;
    req.set_job_id("nope");
    pb::DiagnosisJob job;
    EXPECT_EQ(env_->stub().GetDiagnosis(&ctx, req, &job).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  // None of that touched the good session.
  grpc::Status status;
  EXPECT_EQ(env_->GetSession(session, &status).turns_size(), 0);
  EXPECT_TRUE(status.ok());
}

TEST_P(OrchestratorServiceTest, RestartKeepsSessionsAndEvents) {
  const std::string session = env_->CreateSession();
  const CollectedEvents first = env_->Ask(session, "which threads use the most CPU?");
  ASSERT_TRUE(first.status.ok());
  env_->KillOrchestrator();  // a crash, not a clean stop
  env_->StartOrchestrator();
  grpc::Status status;
  const pb::Session info = env_->GetSession(session, &status);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(info.turns_size(), 1);
  EXPECT_EQ(info.turns(0).status(), "done");
  const CollectedEvents replay = env_->Resume(session, 0);
  ASSERT_EQ(replay.events.size(), first.events.size());
  EXPECT_EQ(replay.events.back().payload_json(), first.events.back().payload_json());
  // The session takes new turns after the restart, numbering on.
  const CollectedEvents next = env_->Ask(session, "which threads use the most CPU?");
  ASSERT_TRUE(next.status.ok());
  ExpectGapless(next.events, first.events.back().seq() + 1);
  {
    grpc::ClientContext ctx;
    pb::DeleteSessionRequest req;
    req.set_session_id(session);
    pb::DeleteSessionResponse r;
    EXPECT_TRUE(env_->stub().DeleteSession(&ctx, req, &r).ok());
  }
  env_->GetSession(session, &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
}

INSTANTIATE_TEST_SUITE_P(AuthAndTls, OrchestratorServiceTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "Secured" : "Plain";
                         });

}  // namespace
}  // namespace tw::testing
