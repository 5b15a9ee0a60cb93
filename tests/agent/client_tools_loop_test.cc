// Client-side tools in the agent loop, with the shipped strategies and skills on a real synthetic
// trace and a scripted model: offered only when the caller lists them; a call pauses the turn
// (its whole state handed to the pause hook, one client_tool_request event per call, no done);
// the state survives a JSON round trip (as the session store keeps it) and a second loop — as a
// second orchestrator process would — resumes it with the client's answer, which the model then
// reads in call order beside the server-side results of the same message. Timeouts, client
// errors, images, bad arguments, in-process answers and a failed pause are covered too.

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "libs/agent/agent_loop.h"
#include "libs/agent/client_tools.h"
#include "libs/skills/trace_database_runner.h"
#include "tests/agent/agent_test_env.h"
#include "tests/agent/scripted_model.h"

namespace tw::agent {
namespace {

using agent_test::Calls;
using agent_test::ScriptedModel;
using agent_test::Text;
using nlohmann::json;

const char kCountSql[] = R"({"sql": "SELECT COUNT(*) AS threads FROM thread"})";

bool Offers(const llm::ChatRequest& r, const std::string& tool) {
  for (const auto& t : r.tools) {
    if (t.name == tool) return true;
  }
  return false;
}

class ClientToolsLoopTest : public ::testing::Test, protected agent_test::ShippedTools {
 protected:
  // Options whose pause hook keeps the state as the store would (serialized text).
  AgentLoopOptions Pausing() {
    AgentLoopOptions o;
    o.client_tools.timeout_ms = 30'000;
    o.client_tools.new_request_id = [this] { return "req-" + std::to_string(++ids_); };
    o.client_tools.pause = [this](const json& state, const std::vector<ClientToolRequest>& requests) {
      saved_state_ = state.dump();
      saved_requests_ = requests;
      return pause_status_;
    };
    return o;
  }

  TurnRequest Request(const std::string& question, std::vector<std::string> client_tools,
                      const std::string& mode = "quick") {
    TurnRequest r;
    r.question = question;
    r.mode = mode;
    r.client_tools = std::move(client_tools);
    r.context.trace_context = "Trace: synthetic scheduling trace, 4 CPUs.";
    return r;
  }

  TurnOutcome Run(ScriptedModel& model, const TurnRequest& request, AgentLoopOptions options) {
    verify::LocalVerifierClient verifier;
    AgentLoop loop(model, strategies_, Tools(), &verifier, std::move(options));
    return loop.Run(request, session_, [&](const AgentEvent& e) { events_.push_back(e); });
  }

  // A second loop and session, as on another orchestrator process, resumes the saved state.
  TurnOutcome ResumeElsewhere(ScriptedModel& model, std::vector<ClientToolSlot> answers,
                              AgentSession& session) {
    verify::LocalVerifierClient verifier;
    AgentLoop loop(model, strategies_, Tools(), &verifier, Pausing());
    return loop.Resume(json::parse(saved_state_), answers, session,
                       [&](const AgentEvent& e) { events_.push_back(e); });
  }

  static ClientToolSlot Answered(const ClientToolRequest& r, ClientToolAnswer a) {
    return {r, ClientToolState::kAnswered, std::move(a), 1};
  }

  std::vector<const AgentEvent*> Events(AgentEventKind kind) const {
    std::vector<const AgentEvent*> out;
    for (const AgentEvent& e : events_) {
      if (e.kind == kind) out.push_back(&e);
    }
    return out;
  }

  AgentSession session_;
  std::vector<AgentEvent> events_;
  int ids_ = 0;
  std::string saved_state_;
  std::vector<ClientToolRequest> saved_requests_;
  absl::Status pause_status_ = absl::OkStatus();
};

TEST_F(ClientToolsLoopTest, ACallerWithoutClientToolsIsNeverOfferedThem) {
  ScriptedModel model({
      [&](const llm::ChatRequest& r) {
        for (const std::string& tool : ClientToolNames()) EXPECT_FALSE(Offers(r, tool)) << tool;
        return Calls({{"c1", "select_slice", R"({"slice_id": 3})"}});  // called anyway
      },
      [&](const llm::ChatRequest& r) {
        EXPECT_TRUE(r.messages.back().tool_error);
        EXPECT_NE(r.messages.back().text.find("Unknown tool 'select_slice'"), std::string::npos)
            << r.messages.back().text;
        return Text("No selection possible.");
      },
  });
  const TurnOutcome out = Run(model, Request("how many threads are there?", {}), Pausing());
  EXPECT_FALSE(out.waiting);
  EXPECT_TRUE(saved_state_.empty());
  EXPECT_TRUE(Events(AgentEventKind::kClientToolRequest).empty());
}

TEST_F(ClientToolsLoopTest, AClientCallPausesTheTurnAndAnotherLoopResumesItInCallOrder) {
  ScriptedModel first({
      [&](const llm::ChatRequest& r) {
        EXPECT_TRUE(Offers(r, "select_slice"));
        EXPECT_TRUE(Offers(r, "capture_view"));
        EXPECT_FALSE(Offers(r, "add_annotation"));
        // One message with a server-side call and a client-side one.
        return Calls({{"c1", "execute_sql", kCountSql}, {"c2", "select_slice", R"({"slice_id": 42})"}},
                     "Counting and showing you the slice.");
      },
  });
  const TurnOutcome paused =
      Run(first, Request("how many threads are there?", {"select_slice", "capture_view"}), Pausing());
  ASSERT_TRUE(paused.waiting);
  ASSERT_EQ(paused.client_requests.size(), 1u);
  EXPECT_EQ(paused.client_requests[0].request_id, "req-1");
  EXPECT_EQ(paused.client_requests[0].tool, "select_slice");
  EXPECT_GT(paused.client_requests[0].deadline_ns, 0);
  ASSERT_EQ(saved_requests_.size(), 1u);
  EXPECT_FALSE(saved_state_.empty());
  const auto requests = Events(AgentEventKind::kClientToolRequest);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0]->data["request_id"], "req-1");
  EXPECT_EQ(requests[0]->data["arguments"]["slice_id"], 42);
  EXPECT_EQ(requests[0]->data["timeout_ms"], 30'000);
  EXPECT_TRUE(Events(AgentEventKind::kDone).empty());
  EXPECT_EQ(Events(AgentEventKind::kToolResult).size(), 1u);  // execute_sql ran already
  EXPECT_EQ(session_.artifacts.count("sql-1"), 1u);

  // Another process: a fresh session object and loop, the state as the store returned it.
  AgentSession elsewhere;
  ScriptedModel second({
      [&](const llm::ChatRequest& r) {
        // The model reads both results, in the order it made the calls.
        const size_t n = r.messages.size();
        EXPECT_EQ(r.messages[n - 2].tool_call_id, "c1");
        EXPECT_NE(r.messages[n - 2].text.find("sql-1"), std::string::npos);
        EXPECT_EQ(r.messages[n - 1].tool_call_id, "c2");
        EXPECT_EQ(r.messages[n - 1].text, R"({"selected":true,"name":"Choreographer#doFrame"})");
        EXPECT_FALSE(r.messages[n - 1].tool_error);
        EXPECT_EQ(r.messages[0].text, "how many threads are there?");
        return Text("The trace has the threads in sql-1; the selected slice is Choreographer#doFrame.");
      },
  });
  const TurnOutcome done = ResumeElsewhere(
      second,
      {Answered(saved_requests_[0], {R"({"selected":true,"name":"Choreographer#doFrame"})", "", "", ""})},
      elsewhere);
  EXPECT_FALSE(done.waiting);
  EXPECT_TRUE(done.status.ok()) << done.status;
  EXPECT_NE(done.answer.find("Choreographer#doFrame"), std::string::npos);
  EXPECT_EQ(done.model_calls, 2);  // counted across the pause
  EXPECT_EQ(elsewhere.artifacts.count("sql-1"), 1u);  // the session came back with the state
  EXPECT_EQ(elsewhere.tool_calls.size(), 2u);
  const auto results = Events(AgentEventKind::kToolResult);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[1]->data["tool"], "select_slice");
  EXPECT_TRUE(results[1]->data["client"].get<bool>());
  EXPECT_EQ(results[1]->data["request_id"], "req-1");
  EXPECT_EQ(Events(AgentEventKind::kDone).size(), 1u);
  EXPECT_EQ(done.messages.front().text, "how many threads are there?");
}

TEST_F(ClientToolsLoopTest, ThePlanAndHypothesesSurviveThePause) {
  const strategy::Strategy* cpu = strategies_.Find("cpu");
  json phases = json::array();
  for (const strategy::Phase& p : cpu->phases) phases.push_back({{"id", p.id}, {"goal", p.goal}});
  const std::string plan = json{{"phases", phases}, {"aspects", cpu->plan_aspects}}.dump();
  ScriptedModel first({
      [&](const llm::ChatRequest&) { return Calls({{"p", "submit_plan", plan}}); },
      [&](const llm::ChatRequest&) {
        return Calls({{"h", "submit_hypothesis", R"({"statement": "one thread dominates"})"},
                      {"v", "capture_view", R"({"view": "cpu"})"}});
      },
  });
  ASSERT_TRUE(Run(first, Request("which threads use the most CPU?", {"capture_view"}, "full"), Pausing())
                  .waiting);
  AgentSession elsewhere;
  ScriptedModel second({
      [&](const llm::ChatRequest& r) {
        EXPECT_NE(r.system.Joined().find("H1"), std::string::npos);  // the hypothesis is back
        return Calls({{"q", "execute_sql", kCountSql}});            // not refused: the plan is back
      },
      [&](const llm::ChatRequest& r) {
        EXPECT_FALSE(r.messages.back().tool_error) << r.messages.back().text;
        return Text("Done.");
      },
  });
  ResumeElsewhere(second, {Answered(saved_requests_[0], {R"({"summary": "cpu 4 busy"})", "", "", ""})},
                  elsewhere);
  EXPECT_TRUE(elsewhere.plan.present());
  ASSERT_EQ(elsewhere.hypotheses.all().size(), 1u);
  EXPECT_EQ(elsewhere.strategy, cpu);
}

TEST_F(ClientToolsLoopTest, TimeoutsErrorsAndImagesReachTheModel) {
  ScriptedModel first({
      [&](const llm::ChatRequest&) {
        return Calls({{"a", "select_time_range", R"({"start_ns": 100, "end_ns": 900})"},
                      {"b", "add_annotation", R"({"slice_id": 3, "text": "long frame"})"},
                      {"c", "capture_view", R"({"view": "timeline", "start_ns": 100, "end_ns": 900})"}});
      },
  });
  ASSERT_TRUE(Run(first, Request("what happened?", {"select_time_range", "add_annotation", "capture_view"}),
                  Pausing())
                  .waiting);
  ASSERT_EQ(saved_requests_.size(), 3u);
  EXPECT_EQ(Events(AgentEventKind::kClientToolRequest).size(), 3u);
  AgentSession elsewhere;
  ScriptedModel second({
      [&](const llm::ChatRequest& r) {
        const size_t n = r.messages.size();
        const llm::Message& timed_out = r.messages[n - 3];
        EXPECT_TRUE(timed_out.tool_error);
        EXPECT_NE(timed_out.text.find("timed out"), std::string::npos) << timed_out.text;
        EXPECT_NE(timed_out.text.find("30 s"), std::string::npos) << timed_out.text;
        const llm::Message& error = r.messages[n - 2];
        EXPECT_TRUE(error.tool_error);
        EXPECT_NE(error.text.find("annotations are read-only here"), std::string::npos);
        const llm::Message& image = r.messages[n - 1];
        EXPECT_FALSE(image.tool_error);
        EXPECT_EQ(image.tool_call_id, "c");
        EXPECT_EQ(image.images.size(), 1u);
        if (!image.images.empty()) {
          EXPECT_EQ(image.images[0].mime_type, "image/png");
          EXPECT_EQ(image.images[0].data, std::string("\x89PNG\0\x01", 6));
        }
        return Text("Seen.");
      },
  });
  ClientToolSlot timed_out{saved_requests_[0], ClientToolState::kTimedOut, {}, 1};
  const TurnOutcome out = ResumeElsewhere(
      second,
      {timed_out, Answered(saved_requests_[1], {"", "", "", "annotations are read-only here"}),
       Answered(saved_requests_[2], {"", std::string("\x89PNG\0\x01", 6), "image/png", ""})},
      elsewhere);
  EXPECT_EQ(out.answer, "Seen.");
  const auto results = Events(AgentEventKind::kToolResult);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]->data["summary"], "timed out");
  EXPECT_FALSE(results[1]->data["ok"].get<bool>());
  EXPECT_EQ(results[2]->data["summary"], "image image/png, 6 bytes");
}

TEST_F(ClientToolsLoopTest, BadArgumentsInProcessAnswersAndAFailedPauseDoNotWait) {
  // Bad arguments go back to the model at once, without asking the client.
  ScriptedModel model({
      [&](const llm::ChatRequest&) {
        return Calls({{"a", "select_time_range", R"({"start_ns": 900, "end_ns": 100})"}});
      },
      [&](const llm::ChatRequest& r) {
        EXPECT_TRUE(r.messages.back().tool_error);
        EXPECT_NE(r.messages.back().text.find("end_ns must be greater"), std::string::npos);
        return Text("ok");
      },
  });
  EXPECT_FALSE(Run(model, Request("q?", {"select_time_range"}), Pausing()).waiting);
  EXPECT_TRUE(saved_requests_.empty());

  // A client in this process (the CLI) answers at once.
  AgentLoopOptions now;
  std::vector<ClientToolRequest> ran;
  now.client_tools.run_now = [&](const ClientToolRequest& r) -> std::optional<ClientToolAnswer> {
    ran.push_back(r);
    return ClientToolAnswer{R"({"pinned": true})", "", "", ""};
  };
  ScriptedModel printed({
      [&](const llm::ChatRequest&) {
        return Calls({{"n", "add_annotation", R"({"start_ns": 1, "end_ns": 2, "text": "here"})"}});
      },
      [&](const llm::ChatRequest& r) {
        EXPECT_EQ(r.messages.back().text, R"({"pinned": true})");
        return Text("ok");
      },
  });
  EXPECT_FALSE(Run(printed, Request("q?", {"add_annotation"}), now).waiting);
  ASSERT_EQ(ran.size(), 1u);
  EXPECT_EQ(ran[0].tool, "add_annotation");

  // The store refuses the pause: the call fails with that reason and the turn goes on.
  pause_status_ = absl::UnavailableError("session store is down");
  ScriptedModel refused({
      [&](const llm::ChatRequest&) { return Calls({{"s", "select_slice", R"({"slice_id": 1})"}}); },
      [&](const llm::ChatRequest& r) {
        EXPECT_TRUE(r.messages.back().tool_error);
        EXPECT_NE(r.messages.back().text.find("session store is down"), std::string::npos);
        return Text("ok");
      },
  });
  const TurnOutcome out = Run(refused, Request("q?", {"select_slice"}), Pausing());
  EXPECT_FALSE(out.waiting);
  EXPECT_EQ(out.answer, "ok");
}

TEST_F(ClientToolsLoopTest, AnUnreadableStateEndsTheTurnWithAPreciseError) {
  ScriptedModel model({});
  verify::LocalVerifierClient verifier;
  AgentLoop loop(model, strategies_, Tools(), &verifier, Pausing());
  AgentSession session;
  const TurnOutcome out = loop.Resume(json{{"request", 3}}, {}, session,
                                      [&](const AgentEvent& e) { events_.push_back(e); });
  EXPECT_EQ(out.status.code(), absl::StatusCode::kInvalidArgument);
  ASSERT_EQ(Events(AgentEventKind::kError).size(), 1u);
  EXPECT_EQ(Events(AgentEventKind::kDone).size(), 1u);
  EXPECT_TRUE(model.requests.empty());
}

TEST(ClientToolNamesTest, UnknownAndRepeatedNamesAreRefused) {
  EXPECT_TRUE(ValidateClientTools({"select_slice", "capture_view"}).ok());
  const absl::Status unknown = ValidateClientTools({"select_slice", "open_file"});
  EXPECT_EQ(unknown.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.message().find("open_file"), absl::string_view::npos);
  EXPECT_EQ(ValidateClientTools({"capture_view", "capture_view"}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ClientToolSpecs({"add_annotation"}).size(), 1u);
  EXPECT_TRUE(ClientToolSpecs({}).empty());
  EXPECT_EQ(CheckClientToolArguments("add_annotation", R"({"text": "x"})"),
            "add_annotation needs a slice_id or a start_ns and end_ns to pin the note to.");
  EXPECT_EQ(CheckClientToolArguments("capture_view", R"({"view": "cpu", "start_ns": 5})"),
            "Give both start_ns and end_ns (integers, trace ns), or neither.");
  EXPECT_EQ(CheckClientToolArguments("select_slice", "{not json"),
            "The arguments of select_slice are not a JSON object. Send valid JSON matching the schema.");
}

}  // namespace
}  // namespace tw::agent
