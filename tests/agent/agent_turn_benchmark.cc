// The orchestrator's own cost per agent turn (issue target: under 50 ms excluding the model's
// time): a full investigation — scene and mode, prompt assembly before each of 7 model calls,
// 10 tool calls (plan gate refusal, plan, a skill, SQL, phase updates, hypothesis), event
// emission with every event persisted to a SQLite session store as the orchestrator does, answer
// parsing, verification and one correction round — against a model that answers instantly.
// Counters: overhead_ms = turn time − model time; tools_ms = of which running skills and SQL;
// loop_ms = overhead without the tools (what the orchestrator adds around them).
//
//   ./build/tests/agent/tw_agent_turn_benchmark
#include <benchmark/benchmark.h>

#include <filesystem>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "libs/agent/agent_loop.h"
#include "libs/agent/session_store.h"
#include "libs/skills/trace_database_runner.h"
#include "tests/agent/agent_test_env.h"
#include "tests/agent/scripted_model.h"

namespace tw::agent {
namespace {

using agent_test::Calls;
using agent_test::Text;

// The model answers instantly from a fixed script.
agent_test::ScriptedModel InstantModel(const std::vector<llm::ChatResponse>& answers) {
  std::vector<agent_test::Script> script;
  for (const auto& a : answers) script.push_back([a](const llm::ChatRequest&) { return a; });
  return agent_test::ScriptedModel(std::move(script));
}

// The shipped skills and strategies over the test trace, for the benchmarks below.
struct Bench : agent_test::ShippedTools {
  agent_test::AgentTestEnv& env() { return env_; }
  const strategy::StrategyLibrary& strategies() { return strategies_; }
};

void BM_AgentTurnOverhead(benchmark::State& state) {
  Bench bench;
  auto& env = bench.env();
  const strategy::StrategyLibrary* strategies = &bench.strategies();
  verify::LocalVerifierClient verifier;
  const std::string db = (env.dir() / "bench_sessions.db").string();
  std::filesystem::remove(db);
  auto store = SqliteSessionStore::Open(db);
  if (!store.ok()) {
    state.SkipWithError("store");
    return;
  }
  auto session_info = (*store)->CreateSession("bench", "bench");

  const strategy::Strategy* cpu = strategies->Find("cpu");
  nlohmann::json phases = nlohmann::json::array();
  std::vector<llm::ToolCall> updates;
  for (const auto& p : cpu->phases) {
    phases.push_back({{"id", p.id}, {"goal", p.goal}});
    updates.push_back({"u" + p.id, "update_plan_phase",
                       nlohmann::json{{"phase_id", p.id}, {"status", "done"}, {"summary", "ok"}}.dump()});
  }
  const std::string plan = nlohmann::json{{"phases", phases}, {"aspects", cpu->plan_aspects}}.dump();
  const std::string sql = nlohmann::json{
      {"sql", "SELECT utid, SUM(dur) / 1e6 AS cpu_ms FROM sched WHERE utid != 0 GROUP BY utid "
              "ORDER BY cpu_ms DESC LIMIT 5"}}.dump();
  auto top = env.trace().db().Execute(
      "SELECT SUM(dur) / 1e6 FROM sched WHERE utid != 0 GROUP BY utid ORDER BY 1 DESC LIMIT 1");
  const std::string grounded = absl::StrFormat("%.2f ms", top->rows[0][0].double_value);
  updates.push_back({"h", "submit_hypothesis", R"({"statement": "one thread dominates"})"});

  double overhead_ms = 0, tools_ms = 0;
  int64_t events = 0;
  for (auto _ : state) {
    agent_test::ScriptedModel model = InstantModel({
        Calls({{"c1", "execute_sql", sql}}),
        Calls({{"c2", "submit_plan", plan}}),
        Calls({{"c3", "invoke_skill", R"({"skill": "cpu_top_threads"})"}, {"c4", "execute_sql", sql}}),
        Calls(updates),
        Calls({{"c5", "resolve_hypothesis",
                R"({"hypothesis_id": "H1", "status": "confirmed", "evidence": ["sql-1"]})"}}),
        Text("## Summary\nBusy.\n\n## Findings\n- [high] Top thread — 99999.9 ms. (evidence: sql-1)\n"),
        Text("## Summary\nBusy.\n\n## Findings\n- [high] Top thread — " + grounded + ". (evidence: sql-1)\n"),
    });
    AgentLoop loop(model, *strategies, bench.Tools(), &verifier);
    AgentSession session;
    TurnRequest request;
    request.question = "which threads use the most CPU and why?";
    request.context.trace_context = "- Duration: 2 s\n";
    const TurnOutcome out = loop.Run(request, session, [&](const AgentEvent& e) {
      (void)(*store)->AppendEvent(session_info->id, 1, AgentEventKindName(e.kind), e.data.dump());
      ++events;
    });
    if (!out.report.verified) state.SkipWithError("the scripted turn did not verify");
    overhead_ms += static_cast<double>(out.overhead_ns) / 1e6;
    tools_ms += static_cast<double>(out.tool_ns) / 1e6;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["overhead_ms"] = overhead_ms / n;
  state.counters["tools_ms"] = tools_ms / n;
  state.counters["loop_ms"] = (overhead_ms - tools_ms) / n;
  state.counters["events"] = static_cast<double>(events) / n;
}
BENCHMARK(BM_AgentTurnOverhead)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// A turn that pauses for a client tool after a SQL result and resumes: the state serialized into
// the SQLite session store's continuation, the answer stored, the continuation claimed and
// parsed, the agent session rebuilt — what the orchestrator adds to a turn per client round trip.
// Counters: overhead_ms = both segments' time outside the model; resume_ms = from the answer to
// the resumed loop's model call (store + claim + parse + prompt).
void BM_ClientToolPauseAndResume(benchmark::State& state) {
  Bench bench;
  const strategy::StrategyLibrary* strategies = &bench.strategies();
  verify::LocalVerifierClient verifier;
  const std::string db = (bench.env().dir() / "bench_pause_sessions.db").string();
  std::filesystem::remove(db);
  auto store = SqliteSessionStore::Open(db);
  if (!store.ok()) {
    state.SkipWithError("setup");
    return;
  }
  const ToolContext tools = bench.Tools();
  const std::string sql = nlohmann::json{
      {"sql", "SELECT utid, SUM(dur) AS cpu_ns FROM sched WHERE utid != 0 GROUP BY utid ORDER BY cpu_ns DESC"}}.dump();
  double overhead_ms = 0, resume_ms = 0;
  int n = 0;
  for (auto _ : state) {
    const std::string sid = (*store)->CreateSession("bench", "bench")->id;
    (void)(*store)->StartTurn(sid, "q", "quick", "");
    int64_t resumed_at = 0, answered_at = 0;
    agent_test::ScriptedModel model({
        [&](const llm::ChatRequest&) {
          return Calls({{"c1", "execute_sql", sql}, {"c2", "select_slice", R"({"slice_id": 1})"}});
        },
        [&](const llm::ChatRequest&) {
          resumed_at = absl::GetCurrentTimeNanos();
          return Text("Done with sql-1.");
        },
    });
    AgentLoopOptions options;
    options.client_tools.pause = [&](const nlohmann::json& s, const std::vector<ClientToolRequest>& r) {
      return (*store)->SaveContinuation(sid, 1, s.dump(), r);
    };
    AgentLoop loop(model, *strategies, tools, &verifier, options);
    TurnRequest request;
    request.question = "which thread is busiest? select it";
    request.mode = "quick";
    request.client_tools = {"select_slice"};
    auto sink = [&](const AgentEvent& e) {
      (void)(*store)->AppendEvent(sid, 1, AgentEventKindName(e.kind), e.data.dump());
    };
    AgentSession session;
    const TurnOutcome paused = loop.Run(request, session, sink);
    answered_at = absl::GetCurrentTimeNanos();
    (void)(*store)->AnswerClientTool(sid, paused.client_requests.at(0).request_id, {R"({"selected":true})", "", "", ""});
    auto claimed = (*store)->ClaimContinuation(sid, 1);
    AgentSession resumed_session;
    const TurnOutcome done = loop.Resume(nlohmann::json::parse(claimed->state), claimed->tools, resumed_session, sink);
    if (done.answer.empty()) state.SkipWithError("the resumed turn did not conclude");
    overhead_ms += static_cast<double>(done.overhead_ns) / 1e6;  // both segments (the state carries the first)
    resume_ms += static_cast<double>(resumed_at - answered_at) / 1e6;
    ++n;
  }
  state.counters["overhead_ms"] = overhead_ms / n;
  state.counters["resume_ms"] = resume_ms / n;
}
BENCHMARK(BM_ClientToolPauseAndResume)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace tw::agent

BENCHMARK_MAIN();
