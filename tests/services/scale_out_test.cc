// Scale-out on one machine (issue #15): three trace-query replicas sharing one trace store,
// two orchestrators sharing one real PostgreSQL (started here in a temporary directory as an
// unprivileged user, stopped after), a skill-engine and a verifier, all as processes; the model
// is a scripted OpenAI-compatible server on loopback.
// - 12 traces uploaded through the router land on their owners by rendezvous hash;
// - questions on several traces answer through either orchestrator;
// - the owner of trace X is killed (SIGKILL) during a query on X: that query and the next ones
//   are answered by the next-ranked replica, which loads X from the shared store;
// - an orchestrator is killed mid-turn: its lease expires, the other marks the turn interrupted,
//   the session is intact there and a new question answers;
// - every session's events are numbered 1..N with no gap and no duplicate, one `done` per turn.
// Skips (saying why) without the PostgreSQL server binaries.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <thread>

#include "libs/rpc/trace_query_router.h"
#include "tests/common/postgres_server.h"
#include "tests/llm/scripted_llm_server.h"
#include "tests/llm/wire_scripts.h"
#include "tests/services/orchestrator_test_env.h"
#include "tools/tracegen/tracegen.h"
#include "tracewise/v1/trace_query.grpc.pb.h"

namespace tw::testing {
namespace {

using llm::testing::Call;
using llm::testing::OpenAiText;
using llm::testing::OpenAiToolCalls;
using llm::testing::ScriptedLlmServer;
using llm::testing::ScriptedResponse;
using json = nlohmann::json;

constexpr int kLeaseMs = 1500;

class ScaleOutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!pg_.ok()) GTEST_SKIP() << pg_.skip_reason();
    dir_ = ProcessTempDir() + "scale_out/";
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    for (int i = 0; i < 3; ++i) {
      replicas_.push_back(std::make_unique<ServiceProcess>(
          TW_TRACE_QUERY_BINARY,
          std::vector<std::string>{"--data-dir", dir_ + "store", "--memory-budget-mb", "1024"}));
      ASSERT_TRUE(replicas_.back()->ok());
      spec_ += (i ? "," : "") + replicas_.back()->address();
    }
    skill_engine_ = std::make_unique<ServiceProcess>(
        TW_SKILL_ENGINE_BINARY,
        std::vector<std::string>{"--trace-query", spec_, "--skills", TW_SOURCE_DIR "/skills"});
    ASSERT_TRUE(skill_engine_->ok());
    verifier_ = std::make_unique<ServiceProcess>(TW_VERIFIER_BINARY, std::vector<std::string>{});
    ASSERT_TRUE(verifier_->ok());
    for (int i = 0; i < 2; ++i) StartOrchestrator(i);
    auto router = rpc::TraceQueryRouter::Create(spec_);
    ASSERT_TRUE(router.ok());
    router_ = std::move(*router);
  }

  void StartOrchestrator(int i) {
    const std::vector<std::string> env = {
        "TRACEWISE_LLM_PROVIDER=openai", "TRACEWISE_LLM_MODEL=gpt-4o",
        "TRACEWISE_LLM_BASE_URL=" + llm_.BaseUrl() + "/v1", "TRACEWISE_LLM_API_KEY=sk-scale-out",
        "TRACEWISE_LLM_RETRY_BACKOFF_MS=1"};
    orchestrators_[i] = std::make_unique<ServiceProcess>(
        TW_ORCHESTRATOR_BINARY,
        std::vector<std::string>{"--trace-query", spec_, "--skill-engine", skill_engine_->address(),
                                 "--verifier", verifier_->address(), "--sessions", pg_.url(),
                                 "--turn-lease-ms", std::to_string(kLeaseMs),
                                 "--data-dir", dir_ + "orchestrator" + std::to_string(i),
                                 "--strategies", TW_SOURCE_DIR "/strategies",
                                 "--skills", TW_SOURCE_DIR "/skills"},
        env);
    ASSERT_TRUE(orchestrators_[i]->ok()) << "orchestrator " << i << " did not start";
    stubs_[i] = pb::Orchestrator::NewStub(
        grpc::CreateChannel(orchestrators_[i]->address(), grpc::InsecureChannelCredentials()));
  }

  std::set<std::string> LoadedOn(const std::string& endpoint) {
    auto stub = tracewise::v1::TraceQuery::NewStub(
        grpc::CreateChannel(endpoint, grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    tracewise::v1::ListTracesResponse listed;
    EXPECT_TRUE(stub->ListTraces(&context, {}, &listed).ok());
    std::set<std::string> out;
    for (const auto& t : listed.traces()) {
      if (t.state() == tracewise::v1::TRACE_STATE_LOADED) out.insert(t.trace_id());
    }
    return out;
  }

  ServiceProcess* Replica(const std::string& endpoint) {
    for (auto& r : replicas_) {
      if (r->address() == endpoint) return r.get();
    }
    return nullptr;
  }

  std::string CreateSession(int o, const std::string& trace_id) {
    grpc::ClientContext ctx;
    pb::CreateSessionRequest req;
    req.set_trace_id(trace_id);
    pb::Session session;
    const grpc::Status status = stubs_[o]->CreateSession(&ctx, req, &session);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return session.id();
  }

  CollectedEvents Ask(int o, const std::string& session, const std::string& question,
                      size_t max_events = SIZE_MAX) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    pb::AskRequest req;
    req.set_session_id(session);
    req.set_question(question);
    req.mutable_options()->set_mode("quick");
    auto reader = stubs_[o]->Ask(&ctx, req);
    return OrchestratorEnv::Read(reader.get(), &ctx, max_events);
  }

  CollectedEvents Resume(int o, const std::string& session, int64_t from) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    pb::ResumeRequest req;
    req.set_session_id(session);
    req.set_from_seq(from);
    auto reader = stubs_[o]->Resume(&ctx, req);
    return OrchestratorEnv::Read(reader.get(), &ctx, SIZE_MAX);
  }

  pb::Session GetSession(int o, const std::string& session) {
    grpc::ClientContext ctx;
    pb::GetSessionRequest req;
    req.set_session_id(session);
    pb::Session out;
    const grpc::Status status = stubs_[o]->GetSession(&ctx, req, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }

  // A question the scripted model answers with one SQL call on the trace, then a sentence.
  void ScriptSqlAnswer() {
    llm_.Enqueue(OpenAiToolCalls({{"c1", "execute_sql", R"({"sql": "SELECT COUNT(*) AS n FROM thread"})"}}));
    llm_.Enqueue(OpenAiText("The trace has its threads counted."));
  }

  PostgresServer pg_;
  ScriptedLlmServer llm_;
  std::string dir_, spec_;
  std::vector<std::unique_ptr<ServiceProcess>> replicas_;
  std::unique_ptr<ServiceProcess> skill_engine_, verifier_;
  std::unique_ptr<ServiceProcess> orchestrators_[2];
  std::unique_ptr<pb::Orchestrator::Stub> stubs_[2];
  std::unique_ptr<rpc::TraceQueryRouter> router_;
};

TEST_F(ScaleOutTest, ReplicasFailOverAndSessionsSurviveAnOrchestrator) {
  // ---- 12 traces, spread over the replicas by the hash ----
  const char* scenarios[] = {"scroll_smooth", "scroll_binder_jank", "scroll_cpu_contention",
                             "startup_warm"};
  std::vector<std::string> ids;
  std::map<std::string, std::set<std::string>> owned;
  for (int i = 0; i < 12; ++i) {
    tracegen::TracegenOptions o;
    o.scenario = scenarios[i % 4];
    o.seed = 100 + i;
    o.duration_s = 1.0;
    const std::string path = dir_ + "trace" + std::to_string(i) + ".pftrace";
    ASSERT_TRUE(tracegen::GenerateTrace(o, path).ok());
    auto uploaded = router_->UploadFile(path);
    ASSERT_TRUE(uploaded.ok()) << uploaded.status();
    ASSERT_TRUE(uploaded->load_status.ok()) << uploaded->load_status;
    ASSERT_EQ(uploaded->owner, router_->OwnerOf(uploaded->trace_id));
    owned[uploaded->owner].insert(uploaded->trace_id);
    ids.push_back(uploaded->trace_id);
  }
  EXPECT_GE(owned.size(), 2u) << "12 traces hashed onto one replica";
  for (const auto& r : replicas_) EXPECT_EQ(LoadedOn(r->address()), owned[r->address()]) << r->address();

  // ---- questions on several traces, through both orchestrators ----
  std::vector<std::string> sessions;
  for (int i = 0; i < 4; ++i) {
    sessions.push_back(CreateSession(i % 2, ids[i]));
    ScriptSqlAnswer();
    const CollectedEvents answer = Ask(i % 2, sessions[i], "how many threads are there?");
    ASSERT_TRUE(answer.status.ok()) << answer.status.error_message();
    EXPECT_EQ(answer.Payload("done")["status"], "OK") << answer.Payload("done").dump();
    EXPECT_EQ(answer.Payload("tool_result")["ok"], true) << answer.Payload("tool_result").dump();
    ExpectGapless(answer.events, 1);
  }
  // A session is served by either replica: B sees A's session, turns and events.
  EXPECT_EQ(GetSession(1, sessions[0]).turns_size(), 1);
  EXPECT_EQ(Resume(1, sessions[0], 0).events.size(), GetSession(0, sessions[0]).last_seq());

  // ---- kill -9 of trace X's owner during a query on X ----
  const std::string x = ids[0];
  const std::vector<std::string> rank = router_->Rank(x);
  absl::Status during;
  std::thread long_query([&] {
    BackendQuery q{x, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000000) "
                      "SELECT COUNT(*) FROM n"};
    during = router_->Query(q).status();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  Replica(rank[0])->Kill();
  long_query.join();
  // The query in flight had sent nothing yet, so the router re-ran it on the next replica.
  EXPECT_TRUE(during.ok()) << during;
  const auto start = std::chrono::steady_clock::now();
  ScriptSqlAnswer();
  const CollectedEvents after = Ask(1, sessions[0], "and now, how many threads?");
  const auto failover = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(after.status.ok()) << after.status.error_message();
  EXPECT_EQ(after.Payload("done")["status"], "OK");
  EXPECT_EQ(after.Payload("tool_result")["ok"], true) << after.Payload("tool_result").dump();
  EXPECT_EQ(LoadedOn(rank[1]).count(x), 1u) << "X was loaded by the next-ranked replica";
  EXPECT_LT(failover, std::chrono::seconds(10));

  // ---- kill -9 of an orchestrator mid-turn ----
  const std::string s = sessions[1];
  const int64_t before = GetSession(0, s).last_seq();
  ScriptedResponse slow = OpenAiText("too late");
  slow.delay_before_response_ms = 60'000;
  llm_.Enqueue(slow);
  const int requests = llm_.RequestCount();
  const CollectedEvents head = Ask(0, s, "what is slow here?", 2);
  ASSERT_EQ(head.events.size(), 2u);
  for (int i = 0; i < 200 && llm_.RequestCount() == requests; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ASSERT_GT(llm_.RequestCount(), requests) << "the turn never reached the model";
  stubs_[0].reset();
  orchestrators_[0]->Kill();
  // The other orchestrator notices the expired lease and interrupts the turn.
  pb::Session info;
  for (int i = 0; i < 200; ++i) {
    info = GetSession(1, s);
    if (info.turns_size() == 2 && info.turns(1).status() == "interrupted") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(info.turns_size(), 2);
  EXPECT_EQ(info.turns(1).status(), "interrupted");
  EXPECT_FALSE(info.busy());
  const CollectedEvents rest = Resume(1, s, before);
  ASSERT_TRUE(rest.status.ok()) << rest.status.error_message();
  ExpectGapless(rest.events, before + 1);
  EXPECT_EQ(rest.Payload("error")["code"], "ABORTED");
  EXPECT_EQ(rest.Payload("done")["stop_reason"], "interrupted");
  ScriptSqlAnswer();
  const CollectedEvents next = Ask(1, s, "try again: how many threads?");
  ASSERT_TRUE(next.status.ok()) << next.status.error_message();
  EXPECT_EQ(next.Payload("done")["status"], "OK");
  ExpectGapless(next.events, rest.events.back().seq() + 1);

  // ---- no event lost or duplicated, anywhere ----
  for (const std::string& id : sessions) {
    const CollectedEvents all = Resume(1, id, 0);
    ASSERT_TRUE(all.status.ok()) << all.status.error_message();
    ExpectGapless(all.events, 1);
    const pb::Session final_info = GetSession(1, id);
    EXPECT_EQ(static_cast<int64_t>(all.events.size()), final_info.last_seq());
    EXPECT_EQ(all.Count("done"), final_info.turns_size()) << "one done per turn in " << id;
  }
}

}  // namespace
}  // namespace tw::testing
