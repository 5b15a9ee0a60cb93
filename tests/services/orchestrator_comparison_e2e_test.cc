// Comparison turns end to end: trace-query, skill-engine, verifier and orchestrator as four
// processes, two tracegen traces uploaded (scroll_binder_jank as the session's trace,
// scroll_smooth as the reference). With a scripted OpenAI model the agent calls
// get_comparison_context, compare_skill (refused before the plan, then run) and execute_sql_on
// on both traces, and the stream, the prompt and the persisted turn show it. Without a model
// the offline answer gains the comparison section. Unknown references are refused precisely
// before a turn starts. And an orchestrator killed during a turn marks it interrupted when it
// comes back.

#include "libs/strategy/strategy_library.h"
#include "tests/llm/scripted_llm_server.h"
#include "tests/llm/wire_scripts.h"
#include "tests/services/orchestrator_test_env.h"
#include "tools/tracegen/tracegen.h"

namespace tw::testing {
namespace {

using llm::testing::Call;
using llm::testing::OpenAiText;
using llm::testing::OpenAiToolCalls;
using llm::testing::ScriptedLlmServer;
using llm::testing::ScriptedResponse;
using json = nlohmann::json;

constexpr char kQuestion[] = "why does scrolling stutter more than in the reference trace?";
// The app's frames that missed their deadline (SurfaceFlinger's display frames are not counted).
std::string AppJankySql(const std::string& app) {
  return "SELECT COUNT(*) AS app_janky FROM actual_frame_timeline_slice a JOIN process p USING (upid) "
         "WHERE p.name = '" + app + "' AND a.jank_type GLOB '*App Deadline Missed*'";
}

struct UploadedTrace {
  std::string id;
  tracegen::GroundTruth truth;
};

class OrchestratorComparisonE2eTest : public ::testing::Test {
 protected:
  std::vector<std::string> OpenAiEnv() {
    return {"TRACEWISE_LLM_PROVIDER=openai", "TRACEWISE_LLM_MODEL=gpt-4o",
            "TRACEWISE_LLM_BASE_URL=" + server_.BaseUrl() + "/v1",
            "TRACEWISE_LLM_API_KEY=sk-e2e-secret", "TRACEWISE_LLM_RETRY_BACKOFF_MS=1"};
  }

  // Generates a tracegen scenario and uploads it to the env's trace-query.
  static UploadedTrace Upload(OrchestratorEnv& env, const std::string& scenario) {
    UploadedTrace out;
    const std::string path = ProcessTempDir() + scenario + ".e2e.pftrace";
    tracegen::TracegenOptions o;
    o.scenario = scenario;
    o.seed = 11;
    o.fps = 90;
    o.duration_s = 3;
    auto truth = tracegen::GenerateTrace(o, path);
    EXPECT_TRUE(truth.ok()) << truth.status();
    if (!truth.ok()) return out;
    out.truth = *truth;
    rpc::GrpcQueryBackend uploader(env.trace_query_address());
    auto id = uploader.UploadFile(path);
    EXPECT_TRUE(id.ok()) << id.status();
    if (id.ok()) out.id = *id;
    return out;
  }

  static std::string CreateSession(OrchestratorEnv& env, const std::string& trace_id) {
    grpc::ClientContext ctx;
    pb::CreateSessionRequest req;
    req.set_trace_id(trace_id);
    req.set_title("comparison");
    pb::Session session;
    const grpc::Status status = env.stub().CreateSession(&ctx, req, &session);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return session.id();
  }

  static CollectedEvents Ask(OrchestratorEnv& env, const std::string& session,
                             const std::string& question, const std::string& reference,
                             const std::string& mode = "auto", size_t max_events = SIZE_MAX) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(180));
    pb::AskRequest req;
    req.set_session_id(session);
    req.set_question(question);
    req.mutable_options()->set_mode(mode);
    req.mutable_options()->set_reference_trace_id(reference);
    auto reader = env.stub().Ask(&ctx, req);
    return OrchestratorEnv::Read(reader.get(), &ctx, max_events);
  }

  static std::vector<json> Payloads(const CollectedEvents& events, const std::string& kind) {
    std::vector<json> out;
    for (const auto& e : events.events) {
      if (e.kind() == kind) out.push_back(json::parse(e.payload_json()));
    }
    return out;
  }

  // The row of a difference table (an artifact as JSON) for the app's layer and `column`.
  static json DifferenceRow(const json& artifact, const std::string& app, const std::string& column) {
    for (const auto& row : artifact["rows"]) {
      if (row[3] == column && row[2].get<std::string>().find(app) != std::string::npos) return row;
    }
    return nullptr;
  }

  ScriptedLlmServer server_;
};

TEST_F(OrchestratorComparisonE2eTest, AgentComparesWithContextSkillAndSqlOnBothTraces) {
  OrchestratorEnv env("orchestrator_comparison_agent", OpenAiEnv());
  env.StartBackends();
  env.StartOrchestrator();
  const UploadedTrace jank = Upload(env, "scroll_binder_jank");
  const UploadedTrace smooth = Upload(env, "scroll_smooth");
  ASSERT_FALSE(jank.id.empty() || smooth.id.empty());
  const int64_t cur = jank.truth.frames_app_deadline_missed;
  const int64_t ref = smooth.truth.frames_app_deadline_missed;
  ASSERT_GT(cur, ref);

  auto strategies = strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies");
  ASSERT_TRUE(strategies.ok());
  const strategy::Strategy* scrolling = strategies->Find("scrolling");
  json phases = json::array();
  std::vector<Call> done;
  for (const auto& p : scrolling->phases) {
    phases.push_back({{"id", p.id}, {"goal", p.goal}, {"skills", p.critical_skills}});
    done.push_back({"phase_" + p.id, "update_plan_phase",
                    json{{"phase_id", p.id}, {"status", "done"}, {"summary", "compared in cmp-2"}}.dump()});
  }
  const std::string plan = json{{"phases", phases}, {"aspects", scrolling->plan_aspects}}.dump();
  const std::string compare = R"({"skill": "frame_overview"})";
  server_.Enqueue(OpenAiToolCalls({{"call_1", "get_comparison_context", "{}"}}, "First the two traces."));
  server_.Enqueue(OpenAiToolCalls({{"call_2", "compare_skill", compare}}));  // before the plan
  server_.Enqueue(OpenAiToolCalls({{"call_3", "submit_plan", plan}}));
  server_.Enqueue(OpenAiToolCalls({{"call_4", "compare_skill", compare}}));
  std::vector<Call> sql_and_phases = {
      {"call_5", "execute_sql_on", json{{"trace", "current"}, {"sql", AppJankySql(jank.truth.app_package)}}.dump()},
      {"call_6", "execute_sql_on",
       json{{"trace", "reference"}, {"sql", AppJankySql(smooth.truth.app_package)}}.dump()}};
  sql_and_phases.insert(sql_and_phases.end(), done.begin(), done.end());
  server_.Enqueue(OpenAiToolCalls(sql_and_phases));
  const std::string conclusion =
      "## Summary\nThe current trace misses the app deadline more often than the reference.\n\n"
      "## Findings\n- [medium] More frames miss the app deadline than on the reference — "
      "app_janky_frames " + std::to_string(cur) + " vs " + std::to_string(ref) +
      " on the app layer. (evidence: cmp-2)\n";
  server_.Enqueue(OpenAiText(conclusion));

  const std::string session = CreateSession(env, jank.id);
  const CollectedEvents turn = Ask(env, session, kQuestion, smooth.id);
  ASSERT_TRUE(turn.status.ok()) << turn.status.error_message();
  ASSERT_EQ(turn.events.back().kind(), "done");
  ExpectGapless(turn.events, 1);
  const json scene = json::parse(turn.events.front().payload_json());
  EXPECT_EQ(scene["scene"], "scrolling");
  EXPECT_EQ(scene["mode"], "full");
  EXPECT_EQ(scene["reference_trace_id"], smooth.id);

  const std::vector<json> results = Payloads(turn, "tool_result");
  ASSERT_EQ(results.size(), 6u + done.size());
  EXPECT_EQ(results[0]["tool"], "get_comparison_context");
  EXPECT_TRUE(results[0]["ok"].get<bool>()) << results[0]["summary"];
  EXPECT_EQ(results[0]["artifacts"][0], "cmp-1");
  EXPECT_EQ(results[1]["tool"], "compare_skill");
  EXPECT_FALSE(results[1]["ok"].get<bool>());
  EXPECT_NE(results[1]["summary"].get<std::string>().find("submit a plan"), std::string::npos);
  EXPECT_TRUE(results[2]["ok"].get<bool>()) << results[2]["summary"];
  EXPECT_EQ(results[3]["tool"], "compare_skill");
  EXPECT_TRUE(results[3]["ok"].get<bool>()) << results[3]["summary"];
  EXPECT_EQ(results[3]["artifacts"].back(), "cmp-2");
  EXPECT_EQ(results[4]["tool"], "execute_sql_on");
  EXPECT_EQ(results[4]["artifacts"][0], "sql-1");
  EXPECT_EQ(results[5]["artifacts"][0], "ref-sql-2");

  // The data envelopes carry both SQL results and the difference table.
  std::map<std::string, json> envelopes;
  for (const json& e : Payloads(turn, "data_envelope")) envelopes[e["id"]] = e;
  ASSERT_TRUE(envelopes.count("cmp-2"));
  const json row = DifferenceRow(envelopes["cmp-2"], jank.truth.app_package, "app_janky_frames");
  ASSERT_FALSE(row.is_null()) << envelopes["cmp-2"].dump();
  EXPECT_EQ(row[5], cur);
  EXPECT_EQ(row[6], ref);
  EXPECT_EQ(row[7], cur - ref);
  ASSERT_TRUE(envelopes.count("sql-1") && envelopes.count("ref-sql-2"));
  EXPECT_EQ(envelopes["sql-1"]["rows"][0][0], cur);
  EXPECT_EQ(envelopes["ref-sql-2"]["rows"][0][0], ref);

  // Verified without a correction: the numbers are in cmp-2.
  EXPECT_EQ(turn.Count("correction"), 0);
  const json verdict = turn.Payload("conclusion");
  EXPECT_TRUE(verdict["verified"].get<bool>()) << turn.Payload("verifier_issues").dump();
  EXPECT_TRUE(turn.Payload("verifier_issues")["passed"].get<bool>()) << turn.Payload("verifier_issues").dump();

  // The model was offered the comparison tools and told what to compare.
  const auto requests = server_.Requests();
  ASSERT_EQ(requests.size(), 6u);
  const json first = json::parse(requests[0].body);
  std::set<std::string> tools;
  for (const auto& t : first["tools"]) tools.insert(t["function"]["name"].get<std::string>());
  EXPECT_EQ(tools.size(), 16u);
  EXPECT_TRUE(tools.count("compare_skill") && tools.count("execute_sql_on") &&
              tools.count("get_comparison_context"));
  // The tool results as the model read them (the events carry a short prefix only).
  EXPECT_NE(requests[1].body.find("focus app: " + jank.truth.app_package), std::string::npos);
  EXPECT_NE(requests[4].body.find("app_janky_frames: " + std::to_string(cur) + " vs " +
                                  std::to_string(ref) + " (+" + std::to_string(cur - ref)),
            std::string::npos);
  const std::string system = first["messages"][0]["content"].dump();
  EXPECT_NE(system.find("This question compares two traces"), std::string::npos);
  EXPECT_NE(system.find("`" + smooth.id + "`"), std::string::npos);
  EXPECT_NE(system.find("current trace `" + jank.id + "`"), std::string::npos);

  // The turn is persisted with its reference and evidence.
  grpc::Status status;
  const pb::Session info = env.GetSession(session, &status);
  ASSERT_TRUE(status.ok());
  ASSERT_EQ(info.turns_size(), 1);
  EXPECT_EQ(info.turns(0).status(), "done");
  EXPECT_EQ(info.turns(0).reference_trace_id(), smooth.id);
  const json report = json::parse(info.turns(0).report_json());
  ASSERT_FALSE(report["artifacts"].empty());
  EXPECT_EQ(report["artifacts"][0]["id"], "cmp-2");

  // A follow-up without a reference is no comparison: the tools are gone again.
  server_.Enqueue(OpenAiText("The session's trace has its own frames counted in sql-1."));
  const CollectedEvents alone = Ask(env, session, "how many frames are there?", "", "quick");
  ASSERT_TRUE(alone.status.ok()) << alone.status.error_message();
  EXPECT_EQ(json::parse(server_.Requests().back().body)["tools"].size(), 3u);
  EXPECT_EQ(env.GetSession(session).turns(1).reference_trace_id(), "");
}

TEST_F(OrchestratorComparisonE2eTest, OfflineAnswerComparesTheKeySkillsAndBadReferencesAreRefused) {
  OrchestratorEnv env("orchestrator_comparison_offline");  // no model configured
  env.StartBackends();
  env.StartOrchestrator();
  const UploadedTrace jank = Upload(env, "scroll_binder_jank");
  const UploadedTrace smooth = Upload(env, "scroll_smooth");
  ASSERT_FALSE(jank.id.empty() || smooth.id.empty());
  const std::string session = CreateSession(env, jank.id);

  // Refused before any turn exists, each with the reason.
  const CollectedEvents unknown = Ask(env, session, kQuestion, std::string(64, '0'));
  EXPECT_EQ(unknown.status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(unknown.status.error_message().find("reference trace " + std::string(64, '0')),
            std::string::npos)
      << unknown.status.error_message();
  const CollectedEvents malformed = Ask(env, session, kQuestion, "no-such-trace");
  EXPECT_EQ(malformed.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(malformed.status.error_message().find("reference trace no-such-trace"), std::string::npos)
      << malformed.status.error_message();
  const CollectedEvents itself = Ask(env, session, kQuestion, jank.id);
  EXPECT_EQ(itself.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(itself.status.error_message().find("own trace"), std::string::npos);
  EXPECT_TRUE(unknown.events.empty() && malformed.events.empty() && itself.events.empty());
  grpc::Status status;
  pb::Session info = env.GetSession(session, &status);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(info.turns_size(), 0);
  EXPECT_EQ(info.last_seq(), 0);

  // The offline analyst diagnoses the current trace and appends the key skills' numbers on both.
  const CollectedEvents turn = Ask(env, session, kQuestion, smooth.id);
  ASSERT_TRUE(turn.status.ok()) << turn.status.error_message();
  ExpectGapless(turn.events, 1);
  std::vector<std::string> compared;
  for (const json& p : Payloads(turn, "progress")) {
    if (p["stage"] == "comparison") compared.push_back(p["skill"]);
  }
  EXPECT_EQ(compared, (std::vector<std::string>{"frame_overview", "janky_frames", "jank_root_causes"}));
  const std::string answer = turn.Payload("conclusion")["answer"];
  EXPECT_TRUE(turn.Payload("conclusion")["deterministic"].get<bool>());
  EXPECT_NE(answer.find("binder"), std::string::npos);  // the diagnosis of the current trace
  EXPECT_NE(answer.find("## Comparison with the reference trace"), std::string::npos) << answer;
  const std::string numbers = "app_janky_frames: " + std::to_string(jank.truth.frames_app_deadline_missed) +
                              " vs " + std::to_string(smooth.truth.frames_app_deadline_missed);
  EXPECT_NE(answer.find(numbers), std::string::npos) << answer;
  bool envelope = false;
  for (const json& e : Payloads(turn, "data_envelope")) envelope |= e["id"] == "cmp-1";
  EXPECT_TRUE(envelope);

  info = env.GetSession(session, &status);
  ASSERT_EQ(info.turns_size(), 1);
  EXPECT_EQ(info.turns(0).reference_trace_id(), smooth.id);
  const json report = json::parse(info.turns(0).report_json());
  bool stored = false;
  for (const auto& a : report["artifacts"]) stored |= a["id"] == "cmp-1";
  EXPECT_TRUE(stored);
}

TEST_F(OrchestratorComparisonE2eTest, TurnRunningWhenTheOrchestratorDiesIsInterrupted) {
  OrchestratorEnv env("orchestrator_interrupted_turn", OpenAiEnv());
  env.StartBackends();
  env.StartOrchestrator();
  // The model takes its time: the orchestrator is killed while it waits for the answer.
  ScriptedResponse slow = OpenAiText("too late");
  slow.delay_before_response_ms = 60'000;
  server_.Enqueue(slow);
  const std::string session = env.CreateSession();
  const CollectedEvents head = env.Ask(session, "how many threads are in the trace?", "quick", 2);
  ASSERT_EQ(head.events.size(), 2u);
  EXPECT_EQ(json::parse(head.events[1].payload_json())["stage"], "model_call");
  for (int i = 0; i < 100 && server_.RequestCount() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(server_.RequestCount(), 1);  // the turn is inside the model call
  env.KillOrchestrator();

  env.StartOrchestrator();
  grpc::Status status;
  pb::Session info = env.GetSession(session, &status);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(info.turns_size(), 1);
  EXPECT_EQ(info.turns(0).status(), "interrupted");
  EXPECT_FALSE(info.busy());
  const CollectedEvents rest = env.Resume(session, head.events.back().seq());
  ASSERT_TRUE(rest.status.ok()) << rest.status.error_message();
  ExpectGapless(rest.events, head.events.back().seq() + 1);
  ASSERT_EQ(rest.Kinds(), (std::vector<std::string>{"error", "done"}));
  EXPECT_EQ(rest.Payload("error")["code"], "ABORTED");
  EXPECT_EQ(rest.Payload("done")["stop_reason"], "interrupted");

  // The session goes on: the next turn runs and numbers on.
  server_.Enqueue(OpenAiText("Counted in the trace."));
  const CollectedEvents next = env.Ask(session, "how many threads are in the trace?", "quick");
  ASSERT_TRUE(next.status.ok()) << next.status.error_message();
  ExpectGapless(next.events, rest.events.back().seq() + 1);
  EXPECT_EQ(next.Payload("done")["status"], "OK");
  info = env.GetSession(session, &status);
  ASSERT_EQ(info.turns_size(), 2);
  EXPECT_EQ(info.turns(0).status(), "interrupted");
  EXPECT_EQ(info.turns(1).status(), "done");
}

}  // namespace
}  // namespace tw::testing
