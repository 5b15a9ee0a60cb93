// The turn runner over backends from the factory, in process, on tracegen traces with the shipped
// skills and strategies and a scripted model: the selection bounds a turn in both modes (on a CPU
// contention trace the top threads inside the contention window are the hog's, outside they are
// not), and the state reset rules — a turn that fails or is cancelled leaves nothing half-done,
// a session moved to another trace keeps nothing of the previous one — each with its own test.

#include "libs/agent/turn_runner.h"

#include <gtest/gtest.h>

#include "libs/backends/backend_factory.h"
#include "tests/agent/scripted_model.h"
#include "tests/common/process_temp_dir.h"
#include "tools/tracegen/tracegen.h"

namespace tw::agent {
namespace {

using agent_test::Calls;
using agent_test::ScriptedModel;
using agent_test::Text;
using nlohmann::json;

constexpr char kCountSql[] = R"({"sql": "SELECT COUNT(*) AS threads FROM thread"})";

// The model of a turn: the test's script, handed to the factory's provider maker.
class ModelSlot {
 public:
  void Set(std::vector<agent_test::Script> script) { model_ = std::make_shared<ScriptedModel>(std::move(script)); }
  std::shared_ptr<llm::LlmProvider> Get() const { return model_; }
  ScriptedModel& model() { return *model_; }

 private:
  std::shared_ptr<ScriptedModel> model_;
};

class TurnRunnerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    truths_ = new std::map<std::string, tracegen::GroundTruth>();
    for (const char* scenario : {"scroll_cpu_contention", "scroll_binder_jank"}) {
      tracegen::TracegenOptions o;
      o.scenario = scenario;
      o.seed = 21;
      o.duration_s = 3;
      o.fps = 90;
      auto truth = tracegen::GenerateTrace(o, Path(scenario));
      ASSERT_TRUE(truth.ok()) << truth.status();
      (*truths_)[scenario] = *truth;
    }
  }
  static void TearDownTestSuite() { delete truths_; }
  static std::string Path(const std::string& scenario) {
    return ::tw::testing::ProcessTempDir() + scenario + ".runner.pftrace";
  }

  TurnRunnerTest()
      : library_(skills::SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diagnostics_)),
        strategies_(*strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies")),
        runner_(strategies_, &library_) {}

  // A factory in process; `llm` says whether turns get the scripted model.
  std::unique_ptr<backends::BackendFactory> Factory(bool llm) {
    backends::BackendFactoryOptions o;
    o.skills = &library_;
    if (llm) o.make_llm = [this] { return slot_.Get(); };
    auto f = backends::BackendFactory::Create(std::move(o));
    EXPECT_TRUE(f.ok()) << f.status();
    return std::move(*f);
  }

  TurnResult Run(backends::BackendFactory& factory, const std::string& trace, const TurnSpec& spec,
                 AgentSession& session, const std::function<bool()>& cancelled = {}) {
    auto backends = factory.ForTurn(trace, {});
    EXPECT_TRUE(backends.ok()) << backends.status();
    return runner_.Run(spec, *backends, session, [&](const AgentEvent& e) { events_.push_back(e); }, cancelled);
  }

  static const skills::StepResult* Artifact(const AnalysisReport& r, const std::string& skill) {
    for (const auto& a : r.artifacts) {
      if (a->skill == skill) return a.get();
    }
    return nullptr;
  }
  static std::string TopProcess(const skills::StepResult& top) {
    const int c = top.ColumnIndex("process_name");
    return top.rows.empty() || c < 0 ? "" : top.rows[0][c].string_value;
  }

  static std::map<std::string, tracegen::GroundTruth>* truths_;
  std::vector<skills::Diagnostic> diagnostics_;
  skills::SkillLibrary library_;
  strategy::StrategyLibrary strategies_;
  TurnRunner runner_;
  ModelSlot slot_;
  std::vector<AgentEvent> events_;
};

std::map<std::string, tracegen::GroundTruth>* TurnRunnerTest::truths_ = nullptr;

TEST_F(TurnRunnerTest, TheSelectionBoundsTheOfflineAnalysis) {
  auto factory = Factory(false);
  const std::string trace = *factory->AddTraceFile(Path("scroll_cpu_contention"));
  const tracegen::GroundTruth& truth = truths_->at("scroll_cpu_contention");
  ASSERT_GT(truth.cpu_contention_to_ns, truth.cpu_contention_from_ns);
  AgentSession session;
  TurnSpec spec;
  spec.question = "which threads use the most CPU?";
  spec.selection.time_range = TimeWindow{truth.cpu_contention_from_ns, truth.cpu_contention_to_ns};
  const TurnResult inside = Run(*factory, trace, spec, session);
  ASSERT_EQ(inside.status, kTurnDone);
  EXPECT_EQ(inside.report.scene, "cpu");
  const std::string label = WindowLabel(*spec.selection.time_range, truth.trace_start_ns);
  EXPECT_EQ(inside.report.scope, label);
  EXPECT_NE(inside.report.overview.find(label), std::string::npos) << inside.report.overview;
  EXPECT_NE(inside.answer.find("Scope:** the selection, " + label), std::string::npos);
  const skills::StepResult* top = Artifact(inside.report, "cpu_top_threads");
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(TopProcess(*top), truth.cpu_hog_process);  // the hog, inside the window
  bool bound = false;
  for (const auto& [name, value] : top->parameters) bound |= name == "start_ts" && value.int_value == truth.cpu_contention_from_ns;
  EXPECT_TRUE(bound) << "the window reached the skill as a bound parameter";

  // After the contention: another answer.
  spec.selection.time_range = TimeWindow{truth.cpu_contention_to_ns + 100'000'000, truth.trace_end_ns};
  const TurnResult after = Run(*factory, trace, spec, session);
  const skills::StepResult* later = Artifact(after.report, "cpu_top_threads");
  ASSERT_NE(later, nullptr);
  EXPECT_NE(TopProcess(*later), truth.cpu_hog_process);
  // A slice selection uses the slice's span; a slice the trace lacks is refused precisely.
  spec.selection = {};
  spec.selection.slice_id = 987654321;
  const TurnResult missing = Run(*factory, trace, spec, session);
  EXPECT_EQ(missing.status, kTurnError);
  EXPECT_EQ(missing.error.code(), absl::StatusCode::kNotFound);
}

TEST_F(TurnRunnerTest, TheSelectionBoundsTheAgentsSkillsAndIsInItsPrompt) {
  auto factory = Factory(true);
  const std::string trace = *factory->AddTraceFile(Path("scroll_cpu_contention"));
  const tracegen::GroundTruth& truth = truths_->at("scroll_cpu_contention");
  std::string result_text;
  slot_.Set({
      [&](const llm::ChatRequest& r) {
        EXPECT_NE(r.system.Joined().find(WindowLabel({truth.cpu_contention_from_ns, truth.cpu_contention_to_ns},
                                                     truth.trace_start_ns)),
                  std::string::npos);
        return Calls({{"c1", "invoke_skill", R"({"skill": "cpu_top_threads"})"}});
      },
      [&](const llm::ChatRequest& r) {
        result_text = r.messages.back().text;
        return Text("The photos app's MediaScan threads dominate the selection.");
      },
  });
  AgentSession session;
  TurnSpec spec;
  spec.question = "which threads use the most CPU?";
  spec.mode = "quick";
  spec.selection.time_range = TimeWindow{truth.cpu_contention_from_ns, truth.cpu_contention_to_ns};
  const TurnResult r = Run(*factory, trace, spec, session);
  ASSERT_EQ(r.status, kTurnDone) << r.error;
  EXPECT_NE(result_text.find("scoped to the selection"), std::string::npos) << result_text;
  EXPECT_NE(result_text.find(truth.cpu_hog_process), std::string::npos) << result_text;
  EXPECT_EQ(r.report.scope, WindowLabel(*spec.selection.time_range, truth.trace_start_ns));
}

// State reset, trigger 1: a turn that fails (the provider errors) leaves nothing half-done.
TEST_F(TurnRunnerTest, AFailedTurnDropsItsHalfDoneState) {
  auto factory = Factory(true);
  const std::string trace = *factory->AddTraceFile(Path("scroll_binder_jank"));
  AgentSession session;
  TurnSpec spec;
  spec.mode = "quick";
  spec.question = "how many threads are there?";
  slot_.Set({[&](const llm::ChatRequest&) { return Calls({{"c1", "execute_sql", kCountSql}}); },
             [&](const llm::ChatRequest&) { return Text("There are some threads (sql-1)."); }});
  ASSERT_EQ(Run(*factory, trace, spec, session).status, kTurnDone);
  ASSERT_TRUE(session.HasArtifact("sql-1"));
  spec.question = "and how many processes?";
  slot_.Set({[&](const llm::ChatRequest&) { return Calls({{"c2", "execute_sql", R"({"sql": "SELECT 1 AS one"})"}}); },
             [&](const llm::ChatRequest&) -> absl::StatusOr<llm::ChatResponse> {
               return absl::UnavailableError("provider down");
             }});
  const TurnResult failed = Run(*factory, trace, spec, session);
  EXPECT_EQ(failed.status, kTurnError);
  EXPECT_TRUE(session.HasArtifact("sql-1"));   // the finished turn's evidence stays
  EXPECT_FALSE(session.HasArtifact("sql-2"));  // the failed turn's goes
  EXPECT_TRUE(session.tool_calls.empty());
  EXPECT_EQ(session.consecutive_failures, 0);
  EXPECT_TRUE(failed.exchange.empty());
}

// State reset, trigger 2: a cancelled turn drops its plan, hypotheses and artifacts.
TEST_F(TurnRunnerTest, ACancelledTurnDropsItsHalfDoneState) {
  auto factory = Factory(true);
  const std::string trace = *factory->AddTraceFile(Path("scroll_binder_jank"));
  const strategy::Strategy* scrolling = strategies_.Find("scrolling");
  json phases = json::array();
  for (const strategy::Phase& p : scrolling->phases) phases.push_back({{"id", p.id}, {"goal", p.goal}});
  const std::string plan = json{{"phases", phases}, {"aspects", scrolling->plan_aspects}}.dump();
  bool cancel = false;
  slot_.Set({
      [&](const llm::ChatRequest&) { return Calls({{"p", "submit_plan", plan}}); },
      [&](const llm::ChatRequest&) {
        return Calls({{"h", "submit_hypothesis", R"({"statement": "binder"})"}, {"q", "execute_sql", kCountSql}});
      },
      [&](const llm::ChatRequest&) {
        cancel = true;  // the user cancels while the model thinks
        return Calls({{"q2", "execute_sql", kCountSql}});
      },
  });
  AgentSession session;
  TurnSpec spec;
  spec.mode = "full";
  spec.question = "why does scrolling stutter?";
  const TurnResult r = Run(*factory, trace, spec, session, [&] { return cancel; });
  EXPECT_EQ(r.status, kTurnCancelled);
  EXPECT_FALSE(session.plan.present());
  EXPECT_TRUE(session.hypotheses.all().empty());
  EXPECT_TRUE(session.artifacts.empty());
  EXPECT_TRUE(session.tool_calls.empty());
  // The next turn starts clean: its first prompt asks for a plan again.
  bool first_call = true;
  auto again = [&](const llm::ChatRequest& req) {
    if (first_call) {
      EXPECT_NE(req.system.Joined().find("No plan yet"), std::string::npos);
    }
    first_call = false;
    return Text("Starting over.");
  };
  slot_.Set({again, again, again});  // the verifier may send the bare answer back
  spec.question = "then why?";
  EXPECT_EQ(Run(*factory, trace, spec, session).status, kTurnDone);
}

// State reset, trigger 3: a session moved to another trace keeps nothing of the previous one —
// artifacts, plan, hypotheses — and its prompt carries the new trace's context probes.
TEST_F(TurnRunnerTest, MovingToAnotherTraceDropsWhatWasGatheredOnThePreviousOne) {
  auto factory = Factory(true);
  const std::string first = *factory->AddTraceFile(Path("scroll_binder_jank"));
  const std::string second = *factory->AddTraceFile(Path("scroll_cpu_contention"));
  AgentSession session;
  TurnSpec spec;
  spec.mode = "quick";
  spec.question = "how many threads are there?";
  std::string first_context, second_context;
  slot_.Set({[&](const llm::ChatRequest& r) {
               first_context = r.system.Joined();
               return Calls({{"c1", "execute_sql", kCountSql}});
             },
             [&](const llm::ChatRequest&) { return Text("Counted in sql-1."); }});
  ASSERT_EQ(Run(*factory, first, spec, session).status, kTurnDone);
  session.notes.push_back("the user cares about the RenderThread");
  ASSERT_TRUE(session.HasArtifact("sql-1"));
  slot_.Set({[&](const llm::ChatRequest& r) {
    second_context = r.system.Joined();
    return Text("A different trace.");
  }});
  factory->Forget(first);
  ASSERT_EQ(Run(*factory, second, spec, session).status, kTurnDone);
  EXPECT_EQ(session.trace, second);
  EXPECT_TRUE(session.artifacts.empty());
  EXPECT_EQ(session.notes.size(), 1u);  // the user's notes stay
  EXPECT_NE(first_context, second_context);
  // Each prompt describes its own trace (binder jank has no contention hog running).
  EXPECT_EQ(second_context.find(first), std::string::npos);
  EXPECT_NE(second_context.find("Trace context"), std::string::npos);
}

}  // namespace
}  // namespace tw::agent
