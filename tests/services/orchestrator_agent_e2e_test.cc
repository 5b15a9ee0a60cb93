// End to end: trace-query, skill-engine, verifier and orchestrator as four processes, and a
// scripted LLM server on loopback speaking the real OpenAI Chat Completions / Anthropic Messages
// streaming protocols. A realistic investigation (a data tool refused before the plan, plan,
// skill, SQL, hypothesis, a conclusion with an ungrounded number that the verifier sends back,
// the corrected conclusion citing the SQL artifact) is asserted through the event stream, the
// persisted session, the requests the model received, a client disconnect + resume, and a
// crash + restart of the orchestrator between turns.

#include <cstdio>

#include "absl/strings/str_format.h"
#include "libs/strategy/strategy_library.h"
#include "tests/llm/scripted_llm_server.h"
#include "tests/llm/wire_scripts.h"
#include "tests/services/orchestrator_test_env.h"

namespace tw::testing {
namespace {

using llm::testing::ScriptedLlmServer;
using llm::testing::ScriptedResponse;
using llm::testing::AnthropicTurn;
using llm::testing::Call;
using llm::testing::OpenAiText;
using llm::testing::OpenAiToolCalls;
using json = nlohmann::json;

constexpr char kTopThreadsSql[] =
    "SELECT utid, SUM(dur) / 1e6 AS cpu_ms FROM sched WHERE utid != 0 GROUP BY utid "
    "ORDER BY cpu_ms DESC LIMIT 5";

class OrchestratorAgentE2eTest : public ::testing::Test {
 protected:
  std::vector<std::string> LlmEnv(const std::string& provider) {
    return {"TRACEWISE_LLM_PROVIDER=" + provider,
            std::string("TRACEWISE_LLM_MODEL=") + (provider == "openai" ? "gpt-4o" : "claude-sonnet-4-5"),
            "TRACEWISE_LLM_BASE_URL=" + server_.BaseUrl() + (provider == "openai" ? "/v1" : ""),
            "TRACEWISE_LLM_API_KEY=sk-e2e-secret",
            "TRACEWISE_LLM_RETRY_BACKOFF_MS=1"};
  }

  std::string CpuPlan() {
    auto strategies = strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies");
    EXPECT_TRUE(strategies.ok());
    const strategy::Strategy* cpu = strategies->Find("cpu");
    json phases = json::array();
    for (const auto& p : cpu->phases) {
      phases.push_back({{"id", p.id}, {"goal", p.goal}, {"skills", p.critical_skills}});
      phase_ids_.push_back(p.id);
    }
    return json{{"phases", phases}, {"aspects", cpu->plan_aspects},
                {"rationale", "CPU time first, then waits and placement"}}
        .dump();
  }

  // The top thread's CPU time as the model will read it from sql-1.
  double TopCpuMs(const std::string& trace_query_trace_id, rpc::GrpcQueryBackend& backend) {
    BackendQuery q;
    q.trace_id = trace_query_trace_id;
    q.sql = kTopThreadsSql;
    q.timeout = absl::Seconds(30);
    auto r = backend.Query(q);
    EXPECT_TRUE(r.ok()) << r.status();
    return r->rows[0][1].double_value;
  }

  ScriptedLlmServer server_;
  std::vector<std::string> phase_ids_;
};

TEST_F(OrchestratorAgentE2eTest, OpenAiInvestigationWithPlanGateCorrectionResumeAndRestart) {
  OrchestratorEnv env("orchestrator_e2e_openai", LlmEnv("openai"));
  env.StartBackends();
  env.StartOrchestrator();
  const std::string sql_args = json{{"sql", kTopThreadsSql}}.dump();
  const std::string plan = CpuPlan();
  std::string grounded;
  // 1. a data tool before any plan (refused) 2. plan 3. skill 4. SQL 5. phases + hypothesis
  // 6. resolve 7. ungrounded conclusion 8. corrected conclusion.
  server_.Enqueue(OpenAiToolCalls({{"call_1", "execute_sql", sql_args}}, "Let me look at CPU time."));
  server_.Enqueue(OpenAiToolCalls({{"call_2", "submit_plan", plan}}));
  server_.Enqueue(OpenAiToolCalls({{"call_3", "invoke_skill", R"({"skill": "cpu_top_threads"})"}}));
  server_.Enqueue(OpenAiToolCalls({{"call_4", "execute_sql", sql_args}}));
  {
    std::vector<Call> calls;
    for (const std::string& id : phase_ids_) {
      calls.push_back({"phase_" + id, "update_plan_phase",
                       json{{"phase_id", id}, {"status", "done"}, {"summary", "covered by sql-1"}}.dump()});
    }
    calls.push_back({"call_h1", "submit_hypothesis", R"({"statement": "One thread dominates CPU time"})"});
    server_.Enqueue(OpenAiToolCalls(calls));
  }
  server_.Enqueue(OpenAiToolCalls({{"call_h2", "resolve_hypothesis",
                                    R"({"hypothesis_id": "H1", "status": "confirmed", "evidence": ["sql-1"], "resolution": "top thread leads"})"}}));
  server_.Enqueue(OpenAiText("## Summary\nOne thread dominates.\n\n## Findings\n- [high] The top thread is "
                             "busy — it ran 98765.4 ms on the CPUs. (evidence: sql-1)\n"));
  // The corrected answer states the real number, which the test reads itself via trace-query.
  rpc::GrpcQueryBackend query(env.trace_query_address());
  grounded = absl::StrFormat("%.2f ms", TopCpuMs(env.trace_id(), query));
  server_.Enqueue(OpenAiText("## Summary\nOne thread dominates the CPUs.\n\n## Findings\n- [high] The top "
                             "thread is busy — it ran " + grounded +
                             " on the CPUs. (evidence: sql-1)\n\n## Recommendations\n- Profile the top thread.\n"));

  const std::string session = env.CreateSession();
  // The client disconnects after 5 events; the turn runs on and Resume delivers the rest.
  const CollectedEvents head = env.Ask(session, "which threads use the most CPU and why?", "auto", 5);
  ASSERT_EQ(head.events.size(), 5u);
  const CollectedEvents tail = env.Resume(session, head.events.back().seq());
  ASSERT_TRUE(tail.status.ok()) << tail.status.error_message();
  std::vector<pb::AnalysisEvent> all = head.events;
  all.insert(all.end(), tail.events.begin(), tail.events.end());
  ExpectGapless(all, 1);
  CollectedEvents turn;
  turn.events = all;
  ASSERT_EQ(turn.events.back().kind(), "done");
  EXPECT_EQ(turn.Payload("done")["status"], "OK");

  // The stream tells the investigation.
  const json scene = json::parse(turn.events.front().payload_json());
  EXPECT_EQ(scene["scene"], "cpu");
  EXPECT_EQ(scene["mode"], "full");
  std::vector<json> results;
  for (const auto& e : turn.events) {
    if (e.kind() == "tool_result") results.push_back(json::parse(e.payload_json()));
  }
  ASSERT_GE(results.size(), 6u);
  EXPECT_EQ(results[0]["tool"], "execute_sql");
  EXPECT_FALSE(results[0]["ok"].get<bool>());  // the plan gate
  EXPECT_NE(results[0]["summary"].get<std::string>().find("plan"), std::string::npos);
  EXPECT_EQ(results[1]["tool"], "submit_plan");
  EXPECT_TRUE(results[1]["ok"].get<bool>()) << results[1]["summary"];
  EXPECT_EQ(results[2]["tool"], "invoke_skill");
  EXPECT_TRUE(results[2]["ok"].get<bool>()) << results[2]["summary"];
  EXPECT_EQ(results[3]["tool"], "execute_sql");
  EXPECT_EQ(results[3]["artifacts"][0], "sql-1");
  EXPECT_GE(turn.Count("data_envelope"), 2);
  EXPECT_GE(turn.Count("plan"), 2);
  EXPECT_EQ(turn.Count("hypothesis"), 2);
  EXPECT_EQ(turn.Count("correction"), 1);
  EXPECT_EQ(turn.Count("verifier_issues"), 2);
  EXPECT_GT(turn.Count("text_delta"), 5);
  const json conclusion = turn.Payload("conclusion");
  EXPECT_TRUE(conclusion["verified"].get<bool>());
  EXPECT_NE(conclusion["answer"].get<std::string>().find(grounded), std::string::npos);
  EXPECT_EQ(turn.Payload("finding")["evidence"][0], "sql-1");

  // What the model was sent: the real protocol, the tools, the correction.
  const auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 8u);
  EXPECT_EQ(requests[0].path, "/v1/chat/completions");
  EXPECT_EQ(requests[0].headers.at("authorization"), "Bearer sk-e2e-secret");
  const json first = json::parse(requests[0].body);
  EXPECT_TRUE(first["stream"].get<bool>());
  EXPECT_EQ(first["tools"].size(), 13u);
  EXPECT_NE(first["messages"][0]["content"].dump().find("CPU usage by process and thread"), std::string::npos);
  const json correction = json::parse(requests[7].body);
  EXPECT_NE(correction["messages"].back()["content"].dump().find("98765.4"), std::string::npos);

  // The session persisted the turn, with usage.
  grpc::Status status;
  pb::Session info = env.GetSession(session, &status);
  ASSERT_TRUE(status.ok());
  ASSERT_EQ(info.turns_size(), 1);
  EXPECT_EQ(info.turns(0).status(), "done");
  EXPECT_EQ(info.input_tokens(), 8 * 3000);
  EXPECT_EQ(info.cached_tokens(), 8 * 2048);
  EXPECT_GT(info.cost_micro_usd(), 0);
  const json report = json::parse(info.turns(0).report_json());
  EXPECT_TRUE(report["verified"].get<bool>());
  EXPECT_EQ(report["artifacts"][0]["id"], "sql-1");

  // A crash and restart between turns: the follow-up still has the conversation.
  env.KillOrchestrator();
  env.StartOrchestrator();
  server_.Enqueue(OpenAiText("It is thread with the largest cpu_ms in sql-1, as above."));
  const CollectedEvents follow = env.Ask(session, "how many threads did you compare?", "quick");
  ASSERT_TRUE(follow.status.ok()) << follow.status.error_message();
  ExpectGapless(follow.events, all.back().seq() + 1);
  const json follow_request = json::parse(server_.Requests().back().body);
  EXPECT_NE(follow_request["messages"].dump().find("which threads use the most CPU and why?"),
            std::string::npos);
  info = env.GetSession(session, &status);
  EXPECT_EQ(info.turns_size(), 2);
}

TEST_F(OrchestratorAgentE2eTest, AnthropicQuickAnswerAndProviderFailure) {
  OrchestratorEnv env("orchestrator_e2e_anthropic", LlmEnv("anthropic"));
  env.StartBackends();
  env.StartOrchestrator();
  server_.Enqueue(AnthropicTurn("Counting threads.",
                                {{"toolu_1", "execute_sql", R"({"sql": "SELECT COUNT(*) AS threads FROM thread"})"}}));
  server_.Enqueue(AnthropicTurn("The trace has the threads counted in sql-1.", {}));
  const std::string session = env.CreateSession();
  const CollectedEvents quick = env.Ask(session, "how many threads are in the trace?");
  ASSERT_TRUE(quick.status.ok());
  EXPECT_EQ(json::parse(quick.events.front().payload_json())["mode"], "quick");
  EXPECT_EQ(quick.Payload("tool_result")["artifacts"][0], "sql-1");
  EXPECT_EQ(quick.Payload("conclusion")["answer"], "The trace has the threads counted in sql-1.");
  const auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].path, "/v1/messages");
  EXPECT_EQ(requests[0].headers.at("x-api-key"), "sk-e2e-secret");
  const json second = json::parse(requests[1].body);
  EXPECT_EQ(second["messages"].back()["content"][0]["type"], "tool_result");
  EXPECT_EQ(second["messages"].back()["content"][0]["tool_use_id"], "toolu_1");
  EXPECT_EQ(json::parse(requests[0].body)["tools"].size(), 3u);

  // The provider rejects the key: the turn ends with a precise error, the session stays usable.
  ScriptedResponse unauthorized;
  unauthorized.status = 401;
  unauthorized.content_type = "application/json";
  unauthorized.chunks = {R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})"};
  server_.Enqueue(unauthorized);
  const CollectedEvents failed = env.Ask(session, "how many processes are in the trace?");
  ASSERT_TRUE(failed.status.ok());
  const json error = failed.Payload("error");
  EXPECT_EQ(error["code"], "UNAUTHENTICATED");
  EXPECT_EQ(error["message"].get<std::string>().find("sk-e2e-secret"), std::string::npos);
  EXPECT_EQ(failed.Payload("done")["status"], "UNAUTHENTICATED");
  grpc::Status status;
  const pb::Session info = env.GetSession(session, &status);
  ASSERT_EQ(info.turns_size(), 2);
  EXPECT_EQ(info.turns(0).status(), "done");
  EXPECT_EQ(info.turns(1).status(), "error");
}

}  // namespace
}  // namespace tw::testing
