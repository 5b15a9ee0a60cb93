// The agent loop with the shipped strategies and skills on a real synthetic trace, driven by a
// scripted model (an LlmProvider whose answers are written per call, so each test decides what
// "the model" does and can read what the loop sent it). Covers: the plan gate refusing data
// tools, a full investigation (plan → SQL → hypothesis → conclusion), the correction turn for an
// ungrounded number, quick mode, provider failure and limits ending with a partial report,
// cancellation, the failure watchdog and the event stream.
#include "libs/agent/agent_loop.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "absl/strings/str_format.h"
#include "libs/skills/trace_database_runner.h"
#include "tests/agent/agent_test_env.h"
#include "tests/agent/scripted_model.h"

namespace tw::agent {
namespace {

using agent_test::Calls;
using agent_test::ScriptedModel;
using agent_test::Text;

const llm::Message* LastToolResult(const llm::ChatRequest& request) {
  for (auto it = request.messages.rbegin(); it != request.messages.rend(); ++it) {
    if (it->role == llm::Role::kTool) return &*it;
  }
  return nullptr;
}

class AgentLoopTest : public ::testing::Test, protected agent_test::ShippedTools {
 protected:
  // A plan that covers the cpu scene's aspects and phases, built from the strategy itself.
  std::string CpuPlan() const {
    const strategy::Strategy* cpu = strategies_.Find("cpu");
    nlohmann::json phases = nlohmann::json::array();
    for (const strategy::Phase& p : cpu->phases) phases.push_back({{"id", p.id}, {"goal", p.goal}});
    return nlohmann::json{{"phases", phases}, {"aspects", cpu->plan_aspects}}.dump();
  }
  std::vector<llm::ToolCall> AllPhasesDone() const {
    std::vector<llm::ToolCall> calls;
    for (const strategy::Phase& p : strategies_.Find("cpu")->phases) {
      calls.push_back({"done-" + p.id, "update_plan_phase",
                       nlohmann::json{{"phase_id", p.id}, {"status", "done"}, {"summary", "checked"}}.dump()});
    }
    return calls;
  }

  TurnOutcome Run(ScriptedModel& model, const std::string& question, AgentLoopOptions options = {},
                  const std::function<bool()>& cancelled = {}) {
    verify::LocalVerifierClient verifier;
    AgentLoop loop(model, strategies_, Tools(), &verifier, std::move(options));
    TurnRequest request;
    request.question = question;
    request.context.trace_context = "Trace: synthetic scheduling trace, 4 CPUs, 2 s.";
    return loop.Run(request, session_, [&](const AgentEvent& e) { events_.push_back(e); }, cancelled);
  }

  int Count(AgentEventKind kind) const {
    int n = 0;
    for (const AgentEvent& e : events_) n += e.kind == kind;
    return n;
  }

  // The top thread's CPU time in ms as the SQL below returns it, for a grounded finding.
  static constexpr char kTopThreadsSql[] =
      "SELECT utid, SUM(dur) / 1e6 AS cpu_ms FROM sched WHERE utid != 0 GROUP BY utid "
      "ORDER BY cpu_ms DESC LIMIT 5";
  double TopCpuMs() {
    auto result = env_.trace().db().Execute(kTopThreadsSql);
    EXPECT_TRUE(result.ok());
    return result->rows[0][1].double_value;
  }

  AgentSession session_;
  std::vector<AgentEvent> events_;
};

TEST_F(AgentLoopTest, FullInvestigationWithPlanGateAndCorrection) {
  const std::string sql = nlohmann::json{{"sql", kTopThreadsSql}}.dump();
  const std::string grounded = absl::StrFormat("%.2f ms", TopCpuMs());
  std::string sql_artifact;
  ScriptedModel model({
      // A data tool before any plan: refused by the gate.
      [&](const llm::ChatRequest&) { return Calls({{"c1", "execute_sql", sql}}); },
      [&](const llm::ChatRequest& r) {
        EXPECT_NE(LastToolResult(r)->text.find("submit a plan"), std::string::npos);
        EXPECT_TRUE(LastToolResult(r)->tool_error);
        return Calls({{"c2", "submit_plan", CpuPlan()}}, "I will plan first.");
      },
      [&](const llm::ChatRequest&) { return Calls({{"c3", "execute_sql", sql}}); },
      [&](const llm::ChatRequest& r) {
        const llm::Message* result = LastToolResult(r);
        EXPECT_FALSE(result->tool_error) << result->text;
        EXPECT_EQ(session_.artifacts.size(), 1u);
        sql_artifact = session_.artifacts.begin()->first;
        auto calls = AllPhasesDone();
        calls.push_back({"h1", "submit_hypothesis",
                         R"({"statement": "One thread dominates CPU time"})"});
        return Calls(calls);
      },
      [&](const llm::ChatRequest&) {
        return Calls({{"h2", "resolve_hypothesis",
                       nlohmann::json{{"hypothesis_id", "H1"},
                                      {"status", "confirmed"},
                                      {"evidence", {sql_artifact}},
                                      {"resolution", "the top thread leads"}}
                           .dump()}});
      },
      // First conclusion states a number that is in no artifact.
      [&](const llm::ChatRequest&) {
        return Text("## Summary\nOne thread dominates.\n\n## Findings\n- [high] Top thread is busy — "
                    "it ran 98765.4 ms on the CPUs. (evidence: " + sql_artifact + ")\n");
      },
      [&](const llm::ChatRequest& r) {
        EXPECT_EQ(r.messages.back().role, llm::Role::kUser);
        EXPECT_NE(r.messages.back().text.find("98765.4"), std::string::npos) << r.messages.back().text;
        return Text("## Summary\nOne thread dominates.\n\n## Findings\n- [high] Top thread is busy — "
                    "it ran " + grounded + " on the CPUs. (evidence: " + sql_artifact +
                    ")\n\n## Recommendations\n- Look at what the top thread runs.\n");
      },
  });
  const TurnOutcome out = Run(model, "why is the CPU so busy? which threads use the most CPU?");
  ASSERT_TRUE(out.status.ok()) << out.status;
  EXPECT_EQ(out.stop_reason, "concluded");
  EXPECT_FALSE(out.partial);
  EXPECT_EQ(out.model_calls, 7);
  EXPECT_EQ(out.corrections, 1);
  EXPECT_TRUE(out.report.verified);
  EXPECT_EQ(out.report.scene, "cpu");
  ASSERT_EQ(out.report.findings.size(), 1u);
  EXPECT_NE(out.report.findings[0].description.find(grounded), std::string::npos);
  ASSERT_EQ(out.report.artifacts.size(), 1u);
  EXPECT_EQ(out.report.artifacts[0]->artifact_id, sql_artifact);
  EXPECT_EQ(out.usage.input_tokens, 7000);
  EXPECT_EQ(out.usage.cached_input_tokens, 4200);

  // Every call offered the full-mode tools and a system prompt with the scene's method; the
  // cacheable prefix stayed byte-identical while the plan section changed.
  ASSERT_EQ(model.requests.size(), 7u);
  EXPECT_EQ(model.requests[0].tools.size(), 13u);
  EXPECT_NE(model.requests[0].system.Joined().find("CPU usage by process and thread"),
            std::string::npos);
  EXPECT_NE(model.requests[0].system.rest.find("No plan yet"), std::string::npos);
  EXPECT_EQ(model.requests[6].system.cacheable_prefix, model.requests[0].system.cacheable_prefix);
  EXPECT_NE(model.requests[6].system.rest, model.requests[0].system.rest);
  EXPECT_NE(model.requests[0].system.cacheable_prefix.find("Trace: synthetic"), std::string::npos);

  // The event stream tells the whole story in order.
  EXPECT_EQ(events_.front().kind, AgentEventKind::kProgress);
  EXPECT_EQ(events_.front().data["scene"], "cpu");
  EXPECT_EQ(events_.front().data["mode"], "full");
  // refused SQL, plan, SQL, one update per phase, submit and resolve hypothesis
  const int calls = 5 + static_cast<int>(strategies_.Find("cpu")->phases.size());
  EXPECT_EQ(Count(AgentEventKind::kToolCall), calls);
  EXPECT_EQ(Count(AgentEventKind::kToolResult), calls);
  EXPECT_EQ(Count(AgentEventKind::kDataEnvelope), 1);
  EXPECT_GE(Count(AgentEventKind::kPlan), 4);
  EXPECT_EQ(Count(AgentEventKind::kHypothesis), 2);
  EXPECT_EQ(Count(AgentEventKind::kVerifierIssues), 2);
  EXPECT_EQ(Count(AgentEventKind::kCorrection), 1);
  EXPECT_EQ(Count(AgentEventKind::kFinding), 1);
  EXPECT_EQ(Count(AgentEventKind::kConclusion), 1);
  EXPECT_GT(Count(AgentEventKind::kTextDelta), 0);
  EXPECT_EQ(events_.back().kind, AgentEventKind::kDone);
  EXPECT_EQ(events_.back().data["stop_reason"], "concluded");

  // The conversation of the turn: question, tool rounds, the correction, the final answer.
  EXPECT_EQ(out.messages.front().text, "why is the CPU so busy? which threads use the most CPU?");
  EXPECT_EQ(out.messages.back().role, llm::Role::kAssistant);
}

TEST_F(AgentLoopTest, ASecondCorrectionOnlyWhenTheIssuesChanged) {
  const std::string sql = nlohmann::json{{"sql", kTopThreadsSql}}.dump();
  const auto same_bad_answer = [&](const llm::ChatRequest&) {
    return Text("## Summary\nBusy.\n\n## Findings\n- [critical] Busy — 12345.6 ms of CPU. "
                "(evidence: sql-1)\n");
  };
  auto plan_and_sql = [&](const llm::ChatRequest&) {
    auto calls = AllPhasesDone();
    calls.insert(calls.begin(), {"p", "submit_plan", CpuPlan()});
    calls.push_back({"s", "execute_sql", sql});
    return Calls(calls);
  };
  ScriptedModel model({plan_and_sql, same_bad_answer, same_bad_answer, same_bad_answer});
  const TurnOutcome out = Run(model, "which threads use the most CPU and why?");
  EXPECT_EQ(out.corrections, 1);  // the repeat of the same errors is not sent back again
  EXPECT_EQ(out.model_calls, 3);
  EXPECT_FALSE(out.report.verified);
  bool ungrounded = false;
  for (const auto& issue : out.report.verifier_issues) ungrounded |= issue.kind == "ungrounded_number";
  EXPECT_TRUE(ungrounded);
}

TEST_F(AgentLoopTest, QuickModeAnswersWithoutAPlan) {
  ScriptedModel model({
      [&](const llm::ChatRequest& r) {
        EXPECT_EQ(r.tools.size(), 3u);
        EXPECT_EQ(r.system.Joined().find("submit_plan before"), std::string::npos);
        return Calls({{"q1", "execute_sql", R"({"sql": "SELECT COUNT(*) AS threads FROM thread"})"}});
      },
      [&](const llm::ChatRequest& r) {
        EXPECT_FALSE(LastToolResult(r)->tool_error) << LastToolResult(r)->text;
        return Text("There are 25 threads (sql-1).");
      },
  });
  const TurnOutcome out = Run(model, "how many threads are in the trace?");
  EXPECT_TRUE(out.status.ok());
  EXPECT_EQ(events_.front().data["mode"], "quick");
  EXPECT_TRUE(out.report.verified) << (out.report.verifier_issues.empty()
                                           ? ""
                                           : out.report.verifier_issues[0].message);
  EXPECT_EQ(out.answer, "There are 25 threads (sql-1).");
}

TEST_F(AgentLoopTest, ProviderFailureEndsWithAPartialReportOfWhatWasFound) {
  ScriptedModel model({
      [&](const llm::ChatRequest&) {
        auto calls = AllPhasesDone();
        calls.insert(calls.begin(), {"p", "submit_plan", CpuPlan()});
        calls.push_back({"s", "invoke_skill", R"({"skill": "cpu_top_threads"})"});
        return Calls(calls, "Planning and looking at the busiest threads.");
      },
      [&](const llm::ChatRequest&) -> absl::StatusOr<llm::ChatResponse> {
        return absl::UnavailableError("provider overloaded after 4 attempts");
      },
  });
  const TurnOutcome out = Run(model, "which threads use the most CPU and why?");
  EXPECT_EQ(out.status.code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(out.partial);
  EXPECT_EQ(out.stop_reason, "error: provider overloaded after 4 attempts");
  EXPECT_EQ(out.report.findings.size(), session_.skill_findings.size());
  bool says_incomplete = false;
  for (const auto& limit : out.report.limits) says_incomplete |= limit.find("incomplete") != std::string::npos;
  EXPECT_TRUE(says_incomplete);
  EXPECT_EQ(Count(AgentEventKind::kError), 1);
  EXPECT_EQ(events_.back().data["status"], "UNAVAILABLE");
  EXPECT_EQ(session_.tool_calls.back().skill, "cpu_top_threads");
  EXPECT_TRUE(session_.tool_calls.back().ok) << session_.tool_calls.back().error;
}

TEST_F(AgentLoopTest, CallLimitSpendsTheLastCallOnConcluding) {
  auto look_up = [&](const llm::ChatRequest&) {
    return Calls({{"l", "lookup_sql_schema", R"({"table": "sched"})"}});
  };
  ScriptedModel model({look_up, look_up, [&](const llm::ChatRequest& r) {
                         EXPECT_TRUE(r.tools.empty());
                         EXPECT_EQ(r.options.tool_choice, llm::ToolChoice::kNone);
                         EXPECT_NE(r.messages.back().text.find("Conclude now"), std::string::npos);
                         return Text("## Summary\nNot enough budget to investigate.");
                       }});
  AgentLoopOptions options;
  options.limits.max_model_calls = 3;
  const TurnOutcome out = Run(model, "which threads use the most CPU and why?", options);
  EXPECT_EQ(out.model_calls, 3);
  EXPECT_TRUE(out.partial);
  EXPECT_EQ(out.stop_reason, "limit: model calls (concluded)");
  EXPECT_EQ(out.report.overview, "Not enough budget to investigate.");
}

TEST_F(AgentLoopTest, CancellationStopsTheTurn) {
  bool cancel = false;
  ScriptedModel model({[&](const llm::ChatRequest&) {
    cancel = true;  // the user cancels while the model is answering
    return Calls({{"l", "lookup_sql_schema", "{}"}});
  }});
  const TurnOutcome out =
      Run(model, "which threads use the most CPU and why?", {}, [&] { return cancel; });
  EXPECT_EQ(out.status.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(out.stop_reason, "cancelled");
  EXPECT_EQ(out.model_calls, 1);
  EXPECT_TRUE(session_.tool_calls.empty());  // the requested tool never ran
}

TEST_F(AgentLoopTest, WatchdogWarnsAfterRepeatedToolFailures) {
  auto bad_sql = [&](const llm::ChatRequest&) {
    return Calls({{"b", "execute_sql", R"({"sql": "SELECT nope FROM nowhere"})"}});
  };
  ScriptedModel model({
      [&](const llm::ChatRequest&) { return Calls({{"p", "submit_plan", CpuPlan()}}); },
      bad_sql, bad_sql, bad_sql,
      [&](const llm::ChatRequest& r) {
        EXPECT_NE(LastToolResult(r)->text.find("[watchdog]"), std::string::npos);
        return Text("## Summary\nThe queries failed.");
      },
  });
  Run(model, "which threads use the most CPU and why?");
  ASSERT_GE(model.requests.size(), 5u);  // the fifth call saw the warning (asserted above)
}

TEST_F(AgentLoopTest, FollowUpKeepsTheSessionScene) {
  ScriptedModel first({[&](const llm::ChatRequest&) { return Text("## Summary\nFirst."); }});
  Run(first, "which threads use the most CPU and why?");
  ASSERT_NE(session_.strategy, nullptr);
  EXPECT_EQ(session_.strategy->scene, "cpu");
  ScriptedModel second({[&](const llm::ChatRequest&) { return Text("## Summary\nSecond."); }});
  events_.clear();
  Run(second, "and what about thread 7?");
  EXPECT_EQ(events_.front().data["scene"], "cpu");
  EXPECT_EQ(events_.front().data["matched_by"], "session");
}

TEST_F(AgentLoopTest, EventsStayValidJsonWhenResultsHoldMultiByteText) {
  // 300 two-byte characters: any byte cut of the result text can land inside one.
  const std::string sql =
      nlohmann::json{{"sql", "SELECT replace(hex(zeroblob(300)), '00', 'é') AS s"}}.dump();
  ScriptedModel model({
      [&](const llm::ChatRequest&) { return Calls({{"q", "execute_sql", sql}}); },
      [&](const llm::ChatRequest&) { return Text("It is a long string of é (sql-1)."); },
  });
  AgentLoopOptions options;
  Run(model, "how long is that string?", options);
  for (const AgentEvent& e : events_) {
    EXPECT_NO_THROW(e.data.dump()) << AgentEventKindName(e.kind);  // strict: throws on bad UTF-8
  }
  EXPECT_EQ(Count(AgentEventKind::kToolResult), 1);
}

}  // namespace
}  // namespace tw::agent
