// The comparison tools on real traces: tracegen's scroll_binder_jank (the current trace) against
// scroll_smooth (the reference), and against a scheduling-only synthetic trace (which lacks the
// frame timeline). compare_skill's difference table must state the janky-frame difference the
// two manifests record; execute_sql_on must reach each trace; get_comparison_context must show
// both traces' probes and what only one of them has. Also: the tools are offered only with a
// reference, obey the plan gate, the prompt carries the comparison instructions, and the offline
// comparison of the scrolling procedure states the same numbers.
#include "libs/agent/comparison_tools.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "libs/agent/agent_prompt.h"
#include "libs/agent/agent_tools.h"
#include "libs/agent/procedure_comparison.h"
#include "libs/agent/skill_comparison.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tests/common/process_temp_dir.h"
#include "tools/synth/sched_trace_writer.h"
#include "tools/tracegen/tracegen.h"

namespace tw::agent {
namespace {

using json = nlohmann::json;

// One loaded trace with the runners the tools use.
struct Trace {
  std::string id;
  tracegen::GroundTruth truth;
  std::unique_ptr<LoadedTrace> loaded;
  std::unique_ptr<skills::TraceDatabaseRunner> sql;
  std::unique_ptr<LocalSkillRunner> skills;
  int64_t app_upid = -1;

  int64_t Count(const std::string& query) {
    auto r = loaded->db().Execute(query);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() && !r->rows.empty() ? r->rows[0][0].int_value : -1;
  }
};

class ComparisonToolsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::vector<skills::Diagnostic> diagnostics;
    library_ = new skills::SkillLibrary(
        skills::SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diagnostics));
    auto strategies = strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies");
    ASSERT_TRUE(strategies.ok()) << strategies.status();
    strategies_ = new strategy::StrategyLibrary(std::move(*strategies));
    jank_ = Generate("scroll_binder_jank");
    smooth_ = Generate("scroll_smooth");
    sched_ = LoadSynthetic();
  }
  static void TearDownTestSuite() {
    delete jank_;
    delete smooth_;
    delete sched_;
    delete strategies_;
    delete library_;
  }

  static void Attach(Trace* t, const std::string& path) {
    auto loaded = LoadTraceFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    t->loaded = std::move(*loaded);
    t->sql = std::make_unique<skills::TraceDatabaseRunner>(&t->loaded->db());
    t->skills = std::make_unique<LocalSkillRunner>(*library_, *t->sql);
  }

  static Trace* Generate(const std::string& scenario) {
    auto* t = new Trace;
    t->id = scenario;
    const std::string path = ::tw::testing::ProcessTempDir() + scenario + ".cmp.pftrace";
    tracegen::TracegenOptions o;
    o.scenario = scenario;
    o.seed = 11;
    o.fps = 90;
    o.duration_s = 3;
    auto truth = tracegen::GenerateTrace(o, path);
    EXPECT_TRUE(truth.ok()) << truth.status();
    if (!truth.ok()) return t;
    t->truth = *truth;
    Attach(t, path);
    if (t->loaded) {
      t->app_upid = t->Count("SELECT upid FROM process WHERE pid = " + std::to_string(truth->app_pid));
    }
    return t;
  }

  static Trace* LoadSynthetic() {
    auto* t = new Trace;
    t->id = "sched-only";
    synth::SchedTraceOptions o;
    o.cpus = 4;
    o.duration_ns = 500'000'000;
    o.processes = 4;
    o.threads = 16;
    const std::string path = ::tw::testing::ProcessTempDir() + "sched-only.pftrace";
    EXPECT_TRUE(synth::WriteSyntheticSchedTrace(o, path).ok());
    Attach(t, path);
    return t;
  }

  void SetUp() override {
    ASSERT_TRUE(jank_->loaded && smooth_->loaded && sched_->loaded);
    session_.trace = jank_->id;
    session_.strategy = strategies_->Find("scrolling");
    ASSERT_NE(session_.strategy, nullptr);
  }

  ToolBox Tools(Trace* reference, AnalysisMode mode = AnalysisMode::kFull) {
    session_.mode = mode;
    ToolContext ctx;
    ctx.skills = jank_->skills.get();
    ctx.skill_library = library_;
    ctx.sql = jank_->sql.get();
    ctx.strategies = strategies_;
    ctx.session = &session_;
    if (reference != nullptr) ctx.reference = {reference->id, reference->skills.get(), reference->sql.get()};
    return ToolBox(ctx);
  }

  // A plan that covers the scrolling scene (full mode's gate).
  std::string Plan() const {
    json phases = json::array();
    for (const auto& p : session_.strategy->phases) phases.push_back({{"id", p.id}, {"goal", p.goal}});
    return json{{"phases", phases}, {"aspects", session_.strategy->plan_aspects}}.dump();
  }

  // The difference rows of `table` for `column`, keyed by their row name.
  static std::map<std::string, std::vector<SqlValue>> Rows(const skills::StepResult& table,
                                                           const std::string& column) {
    std::map<std::string, std::vector<SqlValue>> out;
    for (const auto& row : table.rows) {
      if (row[3].string_value == column) out[row[1].string_value + " | " + row[2].string_value] = row;
    }
    return out;
  }

  static skills::SkillLibrary* library_;
  static strategy::StrategyLibrary* strategies_;
  static Trace* jank_;
  static Trace* smooth_;
  static Trace* sched_;
  AgentSession session_;
};

skills::SkillLibrary* ComparisonToolsTest::library_ = nullptr;
strategy::StrategyLibrary* ComparisonToolsTest::strategies_ = nullptr;
Trace* ComparisonToolsTest::jank_ = nullptr;
Trace* ComparisonToolsTest::smooth_ = nullptr;
Trace* ComparisonToolsTest::sched_ = nullptr;

std::vector<std::string> Names(const std::vector<ToolSpec>& specs) {
  std::vector<std::string> names;
  for (const auto& s : specs) names.push_back(s.name);
  return names;
}

TEST_F(ComparisonToolsTest, OfferedOnlyWithAReferenceTrace) {
  const std::vector<std::string> comparison = {"get_comparison_context", "execute_sql_on",
                                               "compare_skill"};
  EXPECT_EQ(Tools(nullptr).Specs().size(), 13u);
  ToolBox with = Tools(smooth_);
  const auto full = Names(with.Specs());
  ASSERT_EQ(full.size(), 16u);
  EXPECT_EQ(std::vector<std::string>(full.end() - 3, full.end()), comparison);
  const auto quick = Names(Tools(smooth_, AnalysisMode::kQuick).Specs());
  // Quick mode stays at three tools: the comparison-capable data tools and the schema.
  EXPECT_EQ(quick, (std::vector<std::string>{"execute_sql_on", "compare_skill", "lookup_sql_schema"}));
  for (const auto& spec : Tools(smooth_).Specs()) {
    EXPECT_EQ(spec.parameters["type"], "object") << spec.name;
  }

  // Without a reference each one says what is missing.
  ToolBox without = Tools(nullptr, AnalysisMode::kQuick);
  for (const std::string& name : comparison) {
    const ToolResult r = without.Call(name, R"({"skill": "frame_overview", "trace": "reference", "sql": "SELECT 1"})");
    EXPECT_FALSE(r.ok) << name;
    EXPECT_NE(r.content.find("needs a reference trace"), std::string::npos) << r.content;
    EXPECT_NE(r.content.find("reference_trace_id"), std::string::npos) << r.content;
  }
}

TEST_F(ComparisonToolsTest, DataToolsWaitForThePlanButTheContextDoesNot) {
  ToolBox tools = Tools(smooth_);
  const ToolResult sql = tools.Call("execute_sql_on", R"({"trace": "reference", "sql": "SELECT 1 AS x"})");
  EXPECT_FALSE(sql.ok);
  EXPECT_NE(sql.content.find("submit a plan"), std::string::npos) << sql.content;
  EXPECT_FALSE(tools.Call("compare_skill", R"({"skill": "frame_overview"})").ok);
  EXPECT_TRUE(tools.Call("get_comparison_context", "{}").ok);
  ASSERT_TRUE(tools.Call("submit_plan", Plan()).ok);
  EXPECT_TRUE(tools.Call("execute_sql_on", R"({"trace": "reference", "sql": "SELECT 1 AS x"})").ok);
  EXPECT_EQ(session_.data_results, 1);  // the context is not a data result
}

TEST_F(ComparisonToolsTest, ExecuteSqlOnReachesEitherTraceAsArtifacts) {
  ToolBox tools = Tools(smooth_);
  ASSERT_TRUE(tools.Call("submit_plan", Plan()).ok);
  const std::string count = "SELECT COUNT(*) AS frames FROM actual_frame_timeline_slice";
  const ToolResult cur = tools.Call("execute_sql_on", json{{"trace", "current"}, {"sql", count}}.dump());
  ASSERT_TRUE(cur.ok) << cur.content;
  const ToolResult ref = tools.Call("execute_sql_on", json{{"trace", "reference"}, {"sql", count}}.dump());
  ASSERT_TRUE(ref.ok) << ref.content;
  // By id too; ids continue execute_sql's numbering.
  const ToolResult by_id = tools.Call("execute_sql_on", json{{"trace", smooth_->id}, {"sql", count}}.dump());
  ASSERT_TRUE(by_id.ok);
  const ToolResult plain = tools.Call("execute_sql", json{{"sql", count}}.dump());
  ASSERT_TRUE(plain.ok);
  EXPECT_EQ(cur.artifacts, std::vector<std::string>{"sql-1"});
  EXPECT_EQ(ref.artifacts, std::vector<std::string>{"ref-sql-2"});
  EXPECT_EQ(by_id.artifacts, std::vector<std::string>{"ref-sql-3"});
  EXPECT_EQ(plain.artifacts, std::vector<std::string>{"sql-4"});
  EXPECT_NE(ref.content.find("reference trace scroll_smooth"), std::string::npos) << ref.content;

  const auto& a = *session_.artifacts.at("sql-1");
  const auto& b = *session_.artifacts.at("ref-sql-2");
  EXPECT_EQ(a.rows[0][0].int_value, jank_->Count(count));
  EXPECT_EQ(b.rows[0][0].int_value, smooth_->Count(count));
  EXPECT_EQ(a.skill, "execute_sql_on");
  EXPECT_NE(b.title.find("reference"), std::string::npos);

  // Summary mode, the row cap's artifact, and precise refusals.
  const ToolResult stats = tools.Call("execute_sql_on",
                                      R"({"trace": "reference", "sql": "SELECT ts, dur FROM slice", "summary": true})");
  ASSERT_TRUE(stats.ok);
  EXPECT_NE(stats.content.find("min "), std::string::npos) << stats.content;
  const ToolResult other = tools.Call("execute_sql_on", R"({"trace": "yesterday", "sql": "SELECT 1"})");
  EXPECT_FALSE(other.ok);
  EXPECT_NE(other.content.find("'current' or 'reference'"), std::string::npos) << other.content;
  const ToolResult write = tools.Call("execute_sql_on", R"({"trace": "reference", "sql": "DELETE FROM slice"})");
  EXPECT_FALSE(write.ok);
  EXPECT_NE(write.content.find("PERMISSION_DENIED"), std::string::npos) << write.content;
  EXPECT_FALSE(tools.Call("execute_sql_on", R"({"sql": "SELECT 1"})").ok);  // trace missing
  EXPECT_GT(smooth_->Count("SELECT COUNT(*) FROM slice"), 0);  // the write did not happen
}

TEST_F(ComparisonToolsTest, CompareSkillStatesTheJankDifferenceOfTheManifests) {
  ToolBox tools = Tools(smooth_, AnalysisMode::kQuick);
  const ToolResult r = tools.Call(
      "compare_skill", json{{"skill", "frame_overview"},
                            {"params", {{"upid", jank_->app_upid}}},
                            {"reference_params", {{"upid", smooth_->app_upid}}}}
                           .dump());
  ASSERT_TRUE(r.ok) << r.content;
  ASSERT_FALSE(r.artifacts.empty());
  EXPECT_EQ(r.artifacts.back(), "cmp-1");
  ASSERT_TRUE(session_.HasArtifact("cmp-1"));
  // Both runs are stored; the reference's under ref- ids.
  bool reference_layers = false;
  for (const std::string& id : r.artifacts) reference_layers |= id.rfind("ref-frame_overview.layers-", 0) == 0;
  EXPECT_TRUE(reference_layers);
  EXPECT_EQ(session_.tool_calls.back().skill, "frame_overview");

  const auto& table = *session_.artifacts.at("cmp-1");
  ASSERT_EQ(table.columns.size(), 9u);
  EXPECT_EQ(table.columns[8].type, skills::ColumnType::kPercent);
  const auto app_janky = Rows(table, "app_janky_frames");
  ASSERT_EQ(app_janky.size(), 1u) << r.content;
  const auto& row = app_janky.begin()->second;
  EXPECT_NE(row[2].string_value.find(jank_->truth.app_package), std::string::npos);
  EXPECT_EQ(row[5].int_value, jank_->truth.frames_app_deadline_missed);
  EXPECT_EQ(row[6].int_value, smooth_->truth.frames_app_deadline_missed);
  EXPECT_EQ(row[7].int_value,
            jank_->truth.frames_app_deadline_missed - smooth_->truth.frames_app_deadline_missed);
  EXPECT_GT(row[7].int_value, 0);
  const auto frames = Rows(table, "frames").begin()->second;
  EXPECT_EQ(frames[5].int_value, jank_->truth.frames_total);
  EXPECT_EQ(frames[6].int_value, smooth_->truth.frames_total);
  // Ids are not compared; durations keep their unit.
  EXPECT_TRUE(Rows(table, "upid").empty());
  EXPECT_EQ(Rows(table, "p90_dur").begin()->second[4].string_value, "duration_ns");
  // The model reads the difference in words, with the delta.
  const std::string expected =
      "app_janky_frames: " + std::to_string(jank_->truth.frames_app_deadline_missed) + " vs " +
      std::to_string(smooth_->truth.frames_app_deadline_missed) + " (+" +
      std::to_string(row[7].int_value);
  EXPECT_NE(r.content.find(expected), std::string::npos) << r.content;
  EXPECT_NE(r.content.find("[current]"), std::string::npos);
  EXPECT_NE(r.content.find("[reference]"), std::string::npos);
  // The current trace's findings count like invoke_skill's.
  EXPECT_NE(r.content.find("p99_dur: "), std::string::npos) << r.content;
}

TEST_F(ComparisonToolsTest, CompareSkillMatchesRowsByNameWithoutParameters) {
  ToolBox tools = Tools(smooth_, AnalysisMode::kQuick);
  const ToolResult r = tools.Call("compare_skill", R"({"skill": "frame_overview"})");
  ASSERT_TRUE(r.ok) << r.content;
  const auto& table = *session_.artifacts.at(r.artifacts.back());
  bool app_row = false;
  for (const auto& [key, row] : Rows(table, "app_janky_frames")) {
    if (key.find(jank_->truth.app_package) == std::string::npos) continue;
    app_row = true;
    EXPECT_EQ(row[5].int_value, jank_->truth.frames_app_deadline_missed);
    EXPECT_EQ(row[6].int_value, smooth_->truth.frames_app_deadline_missed);
  }
  EXPECT_TRUE(app_row) << r.content;
  // The same upid on both traces is flagged, since ids are per trace.
  const ToolResult same = tools.Call("compare_skill", json{{"skill", "frame_overview"},
                                                           {"params", {{"upid", jank_->app_upid}}}}.dump());
  EXPECT_NE(same.content.find("upid is per trace"), std::string::npos) << same.content;
  EXPECT_FALSE(tools.Call("compare_skill", R"({"skill": "no_such_skill"})").ok);
  EXPECT_FALSE(tools.Call("compare_skill", R"({"skill": "frame_overview", "params": {"upid": [1]}})").ok);
}

TEST_F(ComparisonToolsTest, CompareSkillSaysWhenTheReferenceLacksTheData) {
  ToolBox tools = Tools(sched_, AnalysisMode::kQuick);
  const ToolResult r = tools.Call("compare_skill", R"({"skill": "frame_overview"})");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.content.find("reference trace sched-only not_supported"), std::string::npos) << r.content;
  EXPECT_NE(r.content.find("actual_frame_timeline_slice"), std::string::npos) << r.content;
  // A skill both traces support compares fine.
  const ToolResult cpu = tools.Call("compare_skill", R"({"skill": "cpu_top_threads"})");
  EXPECT_TRUE(cpu.ok) << cpu.content;
}

TEST_F(ComparisonToolsTest, ComparisonContextShowsBothTracesSideBySide) {
  ToolBox tools = Tools(smooth_);  // full mode: the context needs no plan
  const ToolResult r = tools.Call("get_comparison_context", "{}");
  ASSERT_TRUE(r.ok) << r.content;
  ASSERT_EQ(r.artifacts.size(), 1u);
  const auto& table = *session_.artifacts.at(r.artifacts[0]);
  std::map<std::string, std::vector<SqlValue>> rows;
  for (const auto& row : table.rows) rows[row[0].string_value] = row;
  const std::string frames = "SELECT COUNT(*) FROM actual_frame_timeline_slice";
  EXPECT_EQ(rows.at("frame timeline rows")[2].int_value, jank_->Count(frames));
  EXPECT_EQ(rows.at("frame timeline rows")[3].int_value, smooth_->Count(frames));
  EXPECT_EQ(rows.at("focus_app")[2].string_value, jank_->truth.app_package);
  EXPECT_EQ(rows.at("focus_app")[3].string_value, smooth_->truth.app_package);
  EXPECT_NEAR(rows.at("refresh_rate")[2].double_value, 90, 1);
  EXPECT_NEAR(rows.at("refresh_rate")[3].double_value, 90, 1);
  EXPECT_EQ(rows.at("architecture")[2].string_value.rfind("hwui", 0), 0u) << r.content;
  EXPECT_EQ(rows.at("duration")[2].int_value,
            jank_->Count("SELECT end_ts - start_ts FROM trace_bounds"));
  EXPECT_EQ(rows.count("only_in_current"), 0u);
  EXPECT_NE(r.content.find("Only the current trace has: nothing"), std::string::npos) << r.content;
  EXPECT_NE(r.content.find("refresh rate: 90 Hz vs 90 Hz"), std::string::npos) << r.content;

  // Against a trace without frames: the capabilities only one trace has, and cautions.
  ToolBox other = Tools(sched_);
  const ToolResult lacking = other.Call("get_comparison_context", "{}");
  ASSERT_TRUE(lacking.ok) << lacking.content;
  EXPECT_NE(lacking.content.find("Only the current trace has: "), std::string::npos);
  EXPECT_NE(lacking.content.find("frame timeline"), std::string::npos);
  EXPECT_NE(lacking.content.find("cannot be compared"), std::string::npos) << lacking.content;
  const auto& t2 = *session_.artifacts.at(lacking.artifacts[0]);
  bool only_current = false;
  for (const auto& row : t2.rows) {
    if (row[0].string_value == "only_in_current") {
      only_current = row[2].string_value.find("frame timeline") != std::string::npos;
    }
  }
  EXPECT_TRUE(only_current);
}

TEST_F(ComparisonToolsTest, PromptCarriesTheComparisonInstructionsPerInteraction) {
  session_.mode = AnalysisMode::kFull;
  TurnContext context;
  context.reference_trace_id = smooth_->id;
  auto prompt = BuildTurnPrompt(*strategies_, session_, context, 24000);
  ASSERT_TRUE(prompt.ok()) << prompt.status();
  const std::string expected = "`" + smooth_->id + "`";
  EXPECT_NE(prompt->system.rest.find("This question compares two traces"), std::string::npos);
  EXPECT_NE(prompt->system.rest.find(expected), std::string::npos);
  EXPECT_NE(prompt->system.rest.find("current trace `" + jank_->id + "`"), std::string::npos);
  EXPECT_EQ(prompt->system.cacheable_prefix.find(expected), std::string::npos);
  auto plain = BuildTurnPrompt(*strategies_, session_, TurnContext{}, 24000);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->system.rest.find("This question compares two traces"), std::string::npos);
  EXPECT_EQ(plain->system.cacheable_prefix, prompt->system.cacheable_prefix);
}

TEST_F(ComparisonToolsTest, OfflineProcedureComparisonStatesTheSameNumbers) {
  std::vector<std::string> compared;
  ProcedureComparisonOptions o;
  o.context_probes = strategies_->context_probes();
  o.current_label = jank_->id;
  o.reference_label = smooth_->id;
  o.on_skill = [&](const std::string& skill) { compared.push_back(skill); };
  const ProcedureComparison c =
      CompareProcedure(*strategies_->Find("scrolling"), *jank_->skills, *smooth_->skills, o);
  EXPECT_EQ(compared, (std::vector<std::string>{"frame_overview", "janky_frames", "jank_root_causes"}));
  ASSERT_FALSE(c.differences.empty());
  EXPECT_EQ(c.differences[0]->artifact_id, "cmp-1");
  const auto app_janky = Rows(*c.differences[0], "app_janky_frames");
  ASSERT_EQ(app_janky.size(), 1u);  // each trace's own focus app (upid from its own probe)
  EXPECT_EQ(app_janky.begin()->second[5].int_value, jank_->truth.frames_app_deadline_missed);
  EXPECT_EQ(app_janky.begin()->second[6].int_value, smooth_->truth.frames_app_deadline_missed);
  EXPECT_NE(c.markdown.find("## Comparison with the reference trace"), std::string::npos);
  EXPECT_NE(c.markdown.find("### frame_overview\nEvidence: cmp-1"), std::string::npos) << c.markdown;
  EXPECT_NE(c.markdown.find("app_janky_frames: " +
                            std::to_string(jank_->truth.frames_app_deadline_missed) + " vs " +
                            std::to_string(smooth_->truth.frames_app_deadline_missed)),
            std::string::npos)
      << c.markdown;

  // Cancelled before the steps: nothing is compared, and the section says so.
  o.cancelled = [] { return true; };
  compared.clear();
  const ProcedureComparison stopped =
      CompareProcedure(*strategies_->Find("scrolling"), *jank_->skills, *smooth_->skills, o);
  EXPECT_TRUE(compared.empty());
  EXPECT_NE(stopped.markdown.find("cancelled"), std::string::npos);
}

}  // namespace
}  // namespace tw::agent
