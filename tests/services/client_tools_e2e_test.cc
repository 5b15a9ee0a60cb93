// Client-side tools end to end: trace-query, skill-engine, verifier and orchestrator as
// processes and a scripted LLM on loopback speaking the real OpenAI / Anthropic streaming
// protocols. A turn whose model calls select_slice pauses (client_tool_request, status
// waiting_for_client, no thread held), resumes after SubmitToolResult on the same Ask stream and
// its answer uses the result; the same with the orchestrator crashed and restarted between
// request and result, and with the result sent to a second orchestrator on the same store; an
// unanswered request times out into a tool error the model reads; capture_view's PNG reaches
// the provider as an image on both protocols; a cancel ends a waiting turn; duplicate, unknown
// and malformed answers get precise statuses; a caller without client tools is never offered
// them; sessions do not see each other's notes; a session moved to another trace gets its
// context.

#include <cstdio>

#include "tests/llm/scripted_llm_server.h"
#include "tests/llm/tiny_png.h"
#include "tests/llm/wire_scripts.h"
#include "tests/security/security_env.h"
#include "tests/services/orchestrator_test_env.h"
#include "tools/synth/sched_trace_writer.h"

namespace tw::testing {
namespace {

using llm::testing::AnthropicTurn;
using llm::testing::OpenAiText;
using llm::testing::OpenAiToolCalls;
using llm::testing::ScriptedLlmServer;
using json = nlohmann::json;

const std::string& kPng = llm::testing::TinyPng();

const char* const kClientToolNames[] = {"select_slice", "select_time_range", "add_annotation", "capture_view"};

std::vector<std::string> OfferedTools(const std::string& body) {
  std::vector<std::string> names;
  const json j = json::parse(body);
  for (const auto& t : j.value("tools", json::array())) {
    names.push_back(t.contains("function") ? t["function"].value("name", "") : t.value("name", ""));
  }
  return names;
}

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// An Ask stream read event by event, so the test can answer client tools as they come.
class AskStream {
 public:
  AskStream(pb::Orchestrator::Stub& stub, const std::string& session, const std::string& question,
            std::vector<std::string> client_tools, const std::string& mode = "quick") {
    ctx_.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    pb::AskRequest req;
    req.set_session_id(session);
    req.set_question(question);
    req.mutable_options()->set_mode(mode);
    for (const auto& t : client_tools) req.mutable_options()->add_client_tools(t);
    reader_ = stub.Ask(&ctx_, req);
  }
  // Reads until an event of `kind` (returned) or the end of the stream (null).
  const pb::AnalysisEvent* ReadUntil(const std::string& kind) {
    pb::AnalysisEvent e;
    while (reader_->Read(&e)) {
      events.push_back(e);
      if (e.kind() == kind) return &events.back();
    }
    status = reader_->Finish();
    finished_ = true;
    return nullptr;
  }
  void ReadToEnd() {
    if (!finished_) ReadUntil("\x01never");
  }
  json Last(const std::string& kind) const {
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if (it->kind() == kind) return json::parse(it->payload_json());
    }
    return nullptr;
  }
  std::vector<pb::AnalysisEvent> events;
  grpc::Status status;

 private:
  grpc::ClientContext ctx_;
  std::unique_ptr<grpc::ClientReader<pb::AnalysisEvent>> reader_;
  bool finished_ = false;
};

grpc::Status Submit(pb::Orchestrator::Stub& stub, const std::string& session, const std::string& request_id,
                    const std::function<void(pb::SubmitToolResultRequest&)>& fill,
                    pb::SubmitToolResultResponse* out = nullptr) {
  grpc::ClientContext ctx;
  pb::SubmitToolResultRequest req;
  req.set_session_id(session);
  req.set_request_id(request_id);
  fill(req);
  pb::SubmitToolResultResponse response;
  grpc::Status s = stub.SubmitToolResult(&ctx, req, &response);
  if (out) *out = response;
  return s;
}

auto JsonResult(const std::string& j) {
  return [j](pb::SubmitToolResultRequest& r) { r.set_result_json(j); };
}

class ClientToolsE2eTest : public ::testing::Test {
 protected:
  std::vector<std::string> LlmEnv(const std::string& provider) {
    return {"TRACEWISE_LLM_PROVIDER=" + provider,
            std::string("TRACEWISE_LLM_MODEL=") + (provider == "openai" ? "gpt-4o" : "claude-sonnet-4-5"),
            "TRACEWISE_LLM_BASE_URL=" + server_.BaseUrl() + (provider == "openai" ? "/v1" : ""),
            "TRACEWISE_LLM_API_KEY=sk-e2e-secret", "TRACEWISE_LLM_RETRY_BACKOFF_MS=1"};
  }
  // The last tool message the model received in request `i` (OpenAI wire format).
  json LastToolMessage(size_t i) {
    const json body = json::parse(server_.Requests().at(i).body);
    for (auto it = body["messages"].rbegin(); it != body["messages"].rend(); ++it) {
      if ((*it)["role"] == "tool") return *it;
    }
    return nullptr;
  }
  ScriptedLlmServer server_;
};

// The same runs with security on (issue #16): every process with an auth config and mTLS. A
// paused turn resumes as the caller who asked — from SubmitToolResult, or from the sweeper when
// nobody answers — so its skill, query and verifier calls still carry that caller's token.
class ClientToolsAuthE2eTest : public ClientToolsE2eTest, public ::testing::WithParamInterface<bool> {
 protected:
  static void TearDownTestSuite() {
    delete security_;
    security_ = nullptr;
  }
  void MaybeSecure(OrchestratorEnv& env) {
    if (!GetParam()) return;
    if (security_ == nullptr) security_ = new SecurityEnv("tw-client-tools");
    ASSERT_TRUE(security_->ok()) << "openssl could not make the test certificates";
    const std::string bearer = security_->Bearer("alpha", "uploader");
    env.set_security({security_->SecurityFlags(), security_->pki().ca_cert, security_->pki().client_cert,
                      security_->pki().client_key, bearer.substr(std::string("Bearer ").size())});
  }
  static SecurityEnv* security_;
};
SecurityEnv* ClientToolsAuthE2eTest::security_ = nullptr;

TEST_P(ClientToolsAuthE2eTest, SelectSlicePausesResumesOnTheSameStreamAndTheAnswerUsesTheResult) {
  OrchestratorEnv env(GetParam() ? "client_tools_select_secured" : "client_tools_select", LlmEnv("openai"));
  MaybeSecure(env);
  env.StartBackends();
  env.StartOrchestrator();
  const std::string session = env.CreateSession();
  server_.Enqueue(OpenAiToolCalls({{"call_1", "select_slice", R"({"slice_id": 7})"}}, "Let me show you."));

  AskStream ask(env.stub(), session, "which slice is the longest?", {"select_slice", "add_annotation"});
  const pb::AnalysisEvent* request = ask.ReadUntil("client_tool_request");
  ASSERT_NE(request, nullptr) << ask.status.error_message();
  const json r = json::parse(request->payload_json());
  EXPECT_EQ(r["tool"], "select_slice");
  EXPECT_EQ(r["arguments"]["slice_id"], 7);
  EXPECT_GT(r["deadline_unix_ns"].get<int64_t>(), 0);
  const std::string request_id = r["request_id"];

  // Offered: the two listed client tools, not the others.
  const std::vector<std::string> offered = OfferedTools(server_.Requests().at(0).body);
  EXPECT_TRUE(Contains(offered, "select_slice"));
  EXPECT_TRUE(Contains(offered, "add_annotation"));
  EXPECT_FALSE(Contains(offered, "capture_view"));

  // The turn waits without a thread; GetSession says so and names the request.
  pb::Session info = env.GetSession(session);
  ASSERT_EQ(info.turns_size(), 1);
  EXPECT_EQ(info.turns(0).status(), "waiting_for_client");
  EXPECT_TRUE(info.busy());
  ASSERT_EQ(info.turns(0).pending_client_tools_size(), 1);
  EXPECT_EQ(info.turns(0).pending_client_tools(0).request_id(), request_id);
  EXPECT_EQ(json::parse(info.turns(0).pending_client_tools(0).arguments_json())["slice_id"], 7);

  // Wrong answers are refused precisely and change nothing.
  EXPECT_EQ(Submit(env.stub(), session, "ct-unknown", JsonResult("{}")).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Submit(env.stub(), "s-nope", request_id, JsonResult("{}")).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Submit(env.stub(), session, request_id, JsonResult("{not json")).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Submit(env.stub(), session, request_id, [](pb::SubmitToolResultRequest&) {}).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  grpc::Status svg = Submit(env.stub(), session, request_id, [](pb::SubmitToolResultRequest& q) {
    q.mutable_image()->set_data("<svg/>");
    q.mutable_image()->set_mime_type("image/svg+xml");
  });
  EXPECT_EQ(svg.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(svg.error_message().find("image/svg+xml"), std::string::npos);

  // The client's answer: the model's next request carries it, and its answer uses it.
  const std::string selected = R"({"selected":true,"name":"Choreographer#doFrame 4217","dur_ns":48211000})";
  server_.Enqueue(OpenAiText("The longest is Choreographer#doFrame 4217 (48.2 ms), now selected."));
  pb::SubmitToolResultResponse submitted;
  ASSERT_TRUE(Submit(env.stub(), session, request_id, JsonResult(selected), &submitted).ok());
  EXPECT_EQ(submitted.turn(), 1);
  EXPECT_EQ(submitted.pending(), 0);
  EXPECT_TRUE(submitted.resumed());
  ask.ReadToEnd();
  ASSERT_TRUE(ask.status.ok()) << ask.status.error_message();
  ExpectGapless(ask.events, ask.events.front().seq());
  ASSERT_EQ(ask.events.back().kind(), "done");
  EXPECT_EQ(ask.Last("done")["status"], "OK");
  const json result = ask.Last("tool_result");
  EXPECT_EQ(result["tool"], "select_slice");
  EXPECT_TRUE(result["client"].get<bool>());
  EXPECT_NE(ask.Last("conclusion")["answer"].get<std::string>().find("Choreographer#doFrame 4217"),
            std::string::npos);
  ASSERT_EQ(server_.RequestCount(), 2);
  const json tool = LastToolMessage(1);
  EXPECT_EQ(tool["tool_call_id"], "call_1");
  EXPECT_EQ(tool["content"], selected);

  // Answered once: a repeat is refused, and the finished turn is no longer waiting.
  grpc::Status again = Submit(env.stub(), session, request_id, JsonResult(selected));
  EXPECT_EQ(again.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(again.error_message().find("already answered"), std::string::npos) << again.error_message();
  info = env.GetSession(session);
  EXPECT_EQ(info.turns(0).status(), "done");
  EXPECT_FALSE(info.busy());
  EXPECT_EQ(info.turns(0).pending_client_tools_size(), 0);

  // A caller without client tools is never offered them.
  server_.Enqueue(OpenAiText("Nothing to select."));
  const CollectedEvents plain = env.Ask(session, "and the shortest?", "quick");
  ASSERT_TRUE(plain.status.ok());
  for (const char* name : kClientToolNames) {
    EXPECT_FALSE(Contains(OfferedTools(server_.Requests().back().body), name)) << name;
  }
}

TEST_F(ClientToolsE2eTest, AnswerAfterTheOrchestratorRestartedResumesTheTurn) {
  OrchestratorEnv env("client_tools_restart", LlmEnv("openai"));
  env.StartBackends();
  env.StartOrchestrator();
  const std::string session = env.CreateSession();
  server_.Enqueue(OpenAiToolCalls({{"call_1", "execute_sql", R"({"sql": "SELECT COUNT(*) AS n FROM thread"})"},
                                   {"call_2", "select_slice", R"({"slice_id": 3})"}}));
  std::string request_id;
  int64_t last_seq = 0;
  {
    AskStream ask(env.stub(), session, "how many threads are there?", {"select_slice"});
    const pb::AnalysisEvent* request = ask.ReadUntil("client_tool_request");
    ASSERT_NE(request, nullptr);
    request_id = json::parse(request->payload_json())["request_id"];
    last_seq = request->seq();
    env.KillOrchestrator();  // a crash while the turn waits
  }
  env.StartOrchestrator();
  // The restarted orchestrator did not take the waiting turn for one it was running.
  pb::Session info = env.GetSession(session);
  ASSERT_EQ(info.turns_size(), 1);
  EXPECT_EQ(info.turns(0).status(), "waiting_for_client");
  server_.Enqueue(OpenAiText("There are the threads counted in sql-1; slice 3 is selected."));
  pb::SubmitToolResultResponse submitted;
  ASSERT_TRUE(Submit(env.stub(), session, request_id, JsonResult(R"({"selected":true})"), &submitted).ok());
  EXPECT_TRUE(submitted.resumed());
  const CollectedEvents rest = env.Resume(session, last_seq);
  ASSERT_TRUE(rest.status.ok()) << rest.status.error_message();
  ExpectGapless(rest.events, last_seq + 1);
  ASSERT_FALSE(rest.events.empty());
  EXPECT_EQ(rest.events.back().kind(), "done");
  EXPECT_EQ(rest.Payload("done")["status"], "OK");
  EXPECT_NE(rest.Payload("conclusion")["answer"].get<std::string>().find("sql-1"), std::string::npos);
  // The model got both results in call order, the SQL one from before the crash.
  const json body = json::parse(server_.Requests().at(1).body);
  const json& messages = body["messages"];
  ASSERT_GE(messages.size(), 4u);
  EXPECT_EQ(messages[messages.size() - 2]["tool_call_id"], "call_1");
  EXPECT_NE(messages[messages.size() - 2]["content"].get<std::string>().find("sql-1"), std::string::npos);
  EXPECT_EQ(messages.back()["tool_call_id"], "call_2");
  info = env.GetSession(session);
  EXPECT_EQ(info.turns(0).status(), "done");
}

TEST_F(ClientToolsE2eTest, AnotherOrchestratorOnTheSameStoreTakesTheAnswer) {
  OrchestratorEnv env("client_tools_two", LlmEnv("openai"));
  env.StartBackends();
  env.StartOrchestrator();
  env.StartSecondOrchestrator();
  const std::string session = env.CreateSession();
  server_.Enqueue(OpenAiToolCalls({{"call_1", "select_time_range", R"({"start_ns": 100, "end_ns": 900})"}}));
  AskStream ask(env.stub(), session, "what happens early on?", {"select_time_range"});
  const pb::AnalysisEvent* request = ask.ReadUntil("client_tool_request");
  ASSERT_NE(request, nullptr);
  const std::string request_id = json::parse(request->payload_json())["request_id"];
  server_.Enqueue(OpenAiText("The range is selected."));
  pb::SubmitToolResultResponse submitted;
  ASSERT_TRUE(Submit(env.second_stub(), session, request_id, JsonResult(R"({"selected":true})"), &submitted).ok());
  EXPECT_TRUE(submitted.resumed());  // the second orchestrator runs the rest of the turn
  ask.ReadToEnd();                   // and the first one's stream carries on
  ASSERT_TRUE(ask.status.ok()) << ask.status.error_message();
  ExpectGapless(ask.events, ask.events.front().seq());
  EXPECT_EQ(ask.events.back().kind(), "done");
  EXPECT_EQ(ask.Last("conclusion")["answer"], "The range is selected.");
}

TEST_P(ClientToolsAuthE2eTest, AnUnansweredRequestTimesOutIntoAToolErrorAndTheTurnGoesOn) {
  OrchestratorEnv env(GetParam() ? "client_tools_timeout_secured" : "client_tools_timeout", LlmEnv("openai"));
  MaybeSecure(env);
  env.set_orchestrator_args({"--client-tool-timeout-s", "1"});
  env.StartBackends();
  env.StartOrchestrator();
  const std::string session = env.CreateSession();
  server_.Enqueue(OpenAiToolCalls({{"call_1", "capture_view", R"({"view": "timeline"})"}}));
  server_.Enqueue(OpenAiText("I could not see the timeline, so I cannot describe it from a picture."));
  AskStream ask(env.stub(), session, "what does the timeline look like?", {"capture_view"});
  const pb::AnalysisEvent* request = ask.ReadUntil("client_tool_request");
  ASSERT_NE(request, nullptr);
  const std::string request_id = json::parse(request->payload_json())["request_id"];
  EXPECT_EQ(json::parse(request->payload_json())["timeout_ms"], 1000);
  const auto start = std::chrono::steady_clock::now();
  ask.ReadToEnd();  // nobody answers
  ASSERT_TRUE(ask.status.ok()) << ask.status.error_message();
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(900));
  EXPECT_EQ(ask.Last("tool_result")["summary"], "timed out");
  EXPECT_FALSE(ask.Last("tool_result")["ok"].get<bool>());
  EXPECT_EQ(ask.Last("done")["status"], "OK");
  const json tool = LastToolMessage(1);
  EXPECT_NE(tool["content"].get<std::string>().find("timed out"), std::string::npos) << tool.dump();
  grpc::Status late = Submit(env.stub(), session, request_id, JsonResult("{}"));
  EXPECT_EQ(late.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(late.error_message().find("timed out"), std::string::npos) << late.error_message();
}

TEST_F(ClientToolsE2eTest, CancellingAWaitingTurnEndsItAndLateAnswersAreRefused) {
  OrchestratorEnv env("client_tools_cancel", LlmEnv("openai"));
  env.StartBackends();
  env.StartOrchestrator();
  const std::string session = env.CreateSession();
  server_.Enqueue(OpenAiToolCalls({{"call_1", "select_slice", R"({"slice_id": 1})"}}));
  AskStream ask(env.stub(), session, "which slice matters?", {"select_slice"});
  const pb::AnalysisEvent* request = ask.ReadUntil("client_tool_request");
  ASSERT_NE(request, nullptr);
  const std::string request_id = json::parse(request->payload_json())["request_id"];
  // A new question must wait for (or cancel) the waiting turn.
  const CollectedEvents refused = env.Ask(session, "another question?", "quick");
  EXPECT_EQ(refused.status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(refused.status.error_message().find("waits for the client"), std::string::npos);
  {
    grpc::ClientContext ctx;
    pb::CancelTurnRequest req;
    req.set_session_id(session);
    pb::CancelTurnResponse response;
    ASSERT_TRUE(env.stub().CancelTurn(&ctx, req, &response).ok());
    EXPECT_EQ(response.turn(), 1);
  }
  ask.ReadToEnd();
  ASSERT_TRUE(ask.status.ok());
  EXPECT_EQ(ask.Last("done")["status"], "CANCELLED");
  EXPECT_EQ(server_.RequestCount(), 1);  // no model call after the cancel
  EXPECT_EQ(env.GetSession(session).turns(0).status(), "cancelled");
  grpc::Status late = Submit(env.stub(), session, request_id, JsonResult("{}"));
  EXPECT_EQ(late.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(late.error_message().find("cancelled"), std::string::npos) << late.error_message();
}

// capture_view's PNG reaches the model as an image on both wire protocols.
class CaptureViewE2eTest : public ClientToolsE2eTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(CaptureViewE2eTest, APngReachesTheProviderAsAnImage) {
  const std::string provider = GetParam();
  OrchestratorEnv env("client_tools_image_" + provider, LlmEnv(provider));
  env.StartBackends();
  env.StartOrchestrator();
  const std::string session = env.CreateSession();
  const std::string args = R"({"view": "cpu", "start_ns": 1000, "end_ns": 2000})";
  if (provider == "openai") {
    server_.Enqueue(OpenAiToolCalls({{"call_v", "capture_view", args}}));
    server_.Enqueue(OpenAiText("The CPU view shows one busy core."));
  } else {
    server_.Enqueue(AnthropicTurn("", {{"toolu_v", "capture_view", args}}));
    server_.Enqueue(AnthropicTurn("The CPU view shows one busy core.", {}));
  }
  AskStream ask(env.stub(), session, "how busy are the CPUs?", {"capture_view"});
  const pb::AnalysisEvent* request = ask.ReadUntil("client_tool_request");
  ASSERT_NE(request, nullptr);
  const std::string request_id = json::parse(request->payload_json())["request_id"];
  ASSERT_TRUE(Submit(env.stub(), session, request_id, [](pb::SubmitToolResultRequest& q) {
                q.mutable_image()->set_data(kPng);
                q.mutable_image()->set_mime_type("image/png");
              }).ok());
  ask.ReadToEnd();
  ASSERT_TRUE(ask.status.ok());
  EXPECT_EQ(ask.Last("tool_result")["summary"], "image image/png, 67 bytes");
  const json body = json::parse(server_.Requests().at(1).body);
  if (provider == "openai") {
    // Tool messages carry text: the image follows in a user message.
    const json& last = body["messages"].back();
    EXPECT_EQ(last["role"], "user");
    EXPECT_EQ(last["content"][1]["type"], "image_url");
    EXPECT_EQ(last["content"][1]["image_url"]["url"].get<std::string>().rfind("data:image/png;base64,iVBORw0KGgo", 0),
              0u);
    const json& tool = body["messages"][body["messages"].size() - 2];
    EXPECT_EQ(tool["role"], "tool");
    EXPECT_EQ(tool["tool_call_id"], "call_v");
  } else {
    const json& result = body["messages"].back()["content"][0];
    EXPECT_EQ(result["type"], "tool_result");
    EXPECT_EQ(result["tool_use_id"], "toolu_v");
    EXPECT_EQ(result["content"][1]["type"], "image");
    EXPECT_EQ(result["content"][1]["source"]["media_type"], "image/png");
    EXPECT_EQ(result["content"][1]["source"]["data"].get<std::string>().rfind("iVBORw0KGgo", 0), 0u);
  }
  EXPECT_EQ(ask.Last("conclusion")["answer"], "The CPU view shows one busy core.");
}

INSTANTIATE_TEST_SUITE_P(BothProtocols, CaptureViewE2eTest, ::testing::Values("openai", "anthropic"));

// State across sessions and traces: one session's notes never reach another's prompt; a session
// moved to another trace is told about that trace.
TEST_F(ClientToolsE2eTest, SessionsAreIsolatedAndASessionSwitchingTraceGetsItsContext) {
  OrchestratorEnv env("client_tools_isolation", LlmEnv("openai"));
  env.StartBackends();
  env.StartOrchestrator();
  const std::string first = env.CreateSession();
  server_.Enqueue(OpenAiToolCalls({{"n1", "write_analysis_note", R"({"note": "SECRET-NOTE-OF-SESSION-ONE"})"}}));
  server_.Enqueue(OpenAiText("Noted."));
  ASSERT_TRUE(env.Ask(first, "remember that the RenderThread matters", "full").status.ok());
  const std::string second = env.CreateSession();
  server_.Enqueue(OpenAiText("A fresh start."));
  ASSERT_TRUE(env.Ask(second, "what do you know so far?", "full").status.ok());
  const std::string fresh = server_.Requests().back().body;
  EXPECT_EQ(fresh.find("SECRET-NOTE-OF-SESSION-ONE"), std::string::npos);
  EXPECT_EQ(fresh.find("remember that the RenderThread matters"), std::string::npos);
  // The first session keeps its own note for its next turn.
  server_.Enqueue(OpenAiText("Still noted."));
  ASSERT_TRUE(env.Ask(first, "what did I ask you to remember?", "full").status.ok());
  EXPECT_NE(server_.Requests().back().body.find("SECRET-NOTE-OF-SESSION-ONE"), std::string::npos);

  // Another trace (2 CPUs instead of 4): the session moves, its prompt describes the new trace.
  synth::SchedTraceOptions o;
  o.cpus = 2;
  o.duration_ns = 300'000'000;
  o.processes = 3;
  o.threads = 9;
  const std::string path = env.dir() + "/other.pftrace";
  ASSERT_TRUE(synth::WriteSyntheticSchedTrace(o, path).ok());
  const std::string other = env.Upload(path);
  const std::string before = json::parse(server_.Requests().back().body)["messages"][0]["content"];
  server_.Enqueue(OpenAiText("This trace has 2 CPUs."));
  {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    pb::AskRequest req;
    req.set_session_id(first);
    req.set_question("how many CPUs does this one have?");
    req.set_trace_id(other);
    req.mutable_options()->set_mode("quick");
    auto reader = env.stub().Ask(&ctx, req);
    const CollectedEvents moved = OrchestratorEnv::Read(reader.get(), &ctx, SIZE_MAX);
    ASSERT_TRUE(moved.status.ok()) << moved.status.error_message();
  }
  const std::string after = json::parse(server_.Requests().back().body)["messages"][0]["content"];
  EXPECT_NE(before.find("CPUs seen in sched: 4"), std::string::npos) << before.substr(0, 600);
  EXPECT_NE(after.find("CPUs seen in sched: 2"), std::string::npos) << after.substr(0, 600);
  EXPECT_EQ(env.GetSession(first).trace_id(), other);
  // An unknown trace is refused before anything changes.
  grpc::ClientContext ctx;
  pb::AskRequest req;
  req.set_session_id(first);
  req.set_question("and this?");
  req.set_trace_id(std::string(64, 'a'));  // well-formed, but no such trace
  auto reader = env.stub().Ask(&ctx, req);
  EXPECT_EQ(OrchestratorEnv::Read(reader.get(), &ctx, SIZE_MAX).status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(env.GetSession(first).trace_id(), other);
}

INSTANTIATE_TEST_SUITE_P(AuthAndTls, ClientToolsAuthE2eTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "Secured" : "Plain";
                         });

}  // namespace
}  // namespace tw::testing
