// The agent's tools on a real trace database: the plan gate, SQL artifacts and summaries,
// skills, schema and knowledge look-ups, paging, hypotheses, and precise refusals.
#include "libs/agent/agent_tools.h"

#include <gtest/gtest.h>

#include "libs/skills/trace_database_runner.h"
#include "tests/agent/agent_test_env.h"

namespace tw::agent {
namespace {

class AgentToolsTest : public ::testing::Test {
 protected:
  AgentToolsTest()
      : env_(agent_test::AgentTestEnv::Get()),
        library_(skills::SkillLibrary::LoadDirectory(env_.skills_dir(), &diagnostics_)),
        strategies_(*strategy::StrategyLibrary::Load(env_.strategies_dir())),
        queries_(&env_.trace().db()),
        runner_(library_, queries_),
        schema_(&env_.trace().db()) {
    session_.strategy = strategies_.Find("cpu");
  }

  ToolBox Tools(AnalysisMode mode = AnalysisMode::kFull) {
    session_.mode = mode;
    ToolContext ctx;
    ctx.skills = &runner_;
    ctx.skill_library = &library_;
    ctx.sql = &queries_;
    ctx.schema = &schema_;
    ctx.strategies = &strategies_;
    ctx.session = &session_;
    ctx.limits.fetch_max_rows = 5;
    return ToolBox(ctx);
  }

  static constexpr char kPlan[] =
      R"({"phases": [{"id": "usage", "goal": "busy threads"}, {"id": "frames", "goal": "frames"}],
          "aspects": ["busy threads"]})";

  agent_test::AgentTestEnv& env_;
  std::vector<skills::Diagnostic> diagnostics_;
  skills::SkillLibrary library_;
  strategy::StrategyLibrary strategies_;
  skills::TraceDatabaseRunner queries_;
  LocalSkillRunner runner_;
  LocalSchemaProvider schema_;
  AgentSession session_;
};

TEST_F(AgentToolsTest, QuickModeOffersThreeDataTools) {
  std::vector<std::string> names;
  for (const ToolSpec& spec : Tools(AnalysisMode::kQuick).Specs()) names.push_back(spec.name);
  EXPECT_EQ(names, (std::vector<std::string>{"execute_sql", "invoke_skill", "lookup_sql_schema"}));
  EXPECT_EQ(Tools(AnalysisMode::kFull).Specs().size(), 13u);
  ToolBox quick = Tools(AnalysisMode::kQuick);
  EXPECT_TRUE(quick.Call("execute_sql", R"({"sql": "SELECT 1 AS x"})").ok);  // no plan gate
  EXPECT_FALSE(quick.Call("submit_plan", kPlan).ok);                       // not offered
}

TEST_F(AgentToolsTest, DataToolsWaitForAnAcceptedPlan) {
  ToolBox tools = Tools();
  ToolResult refused = tools.Call("execute_sql", R"({"sql": "SELECT COUNT(*) FROM sched"})");
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.content.find("submit a plan"), std::string::npos);
  EXPECT_TRUE(tools.Call("lookup_sql_schema", "{}").ok);  // look-ups help planning

  ToolResult bad = tools.Call("submit_plan", R"({"phases": [{"id": "x", "goal": "y"}], "aspects": []})");
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.content.find("busy threads"), std::string::npos);
  EXPECT_TRUE(tools.Call("submit_plan", kPlan).ok);
  ToolResult sql = tools.Call("execute_sql", R"({"sql": "SELECT COUNT(*) AS n FROM sched"})");
  EXPECT_TRUE(sql.ok) << sql.content;
  ASSERT_EQ(sql.artifacts.size(), 1u);
  EXPECT_EQ(sql.artifacts[0], "sql-1");
  EXPECT_TRUE(session_.HasArtifact("sql-1"));
  EXPECT_EQ(session_.data_results, 1);
}

TEST_F(AgentToolsTest, SqlErrorsAndWritesAreRefusedPrecisely) {
  ToolBox tools = Tools(AnalysisMode::kQuick);
  ToolResult error = tools.Call("execute_sql", R"({"sql": "SELECT nope FROM sched"})");
  EXPECT_FALSE(error.ok);
  EXPECT_NE(error.content.find("no such column: nope"), std::string::npos) << error.content;
  ToolResult write = tools.Call("execute_sql", R"({"sql": "DELETE FROM sched"})");
  EXPECT_FALSE(write.ok);
  EXPECT_NE(write.content.find("PERMISSION_DENIED"), std::string::npos) << write.content;
  ToolResult json = tools.Call("execute_sql", R"({"sql": )");
  EXPECT_FALSE(json.ok);
  EXPECT_NE(json.content.find("not a JSON object"), std::string::npos);
  EXPECT_FALSE(tools.Call("execute_sql", R"({"sql": 42})").ok);
  EXPECT_FALSE(tools.Call("no_such_tool", "{}").ok);
  EXPECT_EQ(session_.consecutive_failures, 5);
  EXPECT_EQ(session_.tool_calls.size(), 5u);
}

TEST_F(AgentToolsTest, LargeResultsAreSummarisedAndPaged) {
  ToolBox tools = Tools();
  ASSERT_TRUE(tools.Call("submit_plan", kPlan).ok);
  ToolResult r = tools.Call("execute_sql", R"({"sql": "SELECT ts, dur, cpu, utid FROM sched"})");
  ASSERT_TRUE(r.ok);
  EXPECT_NE(r.content.find("min "), std::string::npos);
  EXPECT_LT(r.content.size(), 2000u);
  const auto& artifact = session_.artifacts.at("sql-1");
  EXPECT_EQ(artifact->columns[1].type, skills::ColumnType::kDurationNs);
  EXPECT_EQ(artifact->columns[0].type, skills::ColumnType::kTimestampNs);
  ToolResult page = tools.Call("fetch_artifact", R"({"artifact_id": "sql-1", "offset": 10, "limit": 100})");
  ASSERT_TRUE(page.ok);
  EXPECT_NE(page.content.find("rows 10..15 of"), std::string::npos) << page.content;  // capped at 5
  EXPECT_FALSE(tools.Call("fetch_artifact", R"({"artifact_id": "sql-9"})").ok);
}

TEST_F(AgentToolsTest, SkillsSchemaKnowledgeAndHypotheses) {
  ToolBox tools = Tools();
  ASSERT_TRUE(tools.Call("submit_plan", kPlan).ok);
  ToolResult skills = tools.Call("list_skills", "{}");
  EXPECT_NE(skills.content.find("thread_detail [cpu] (utid:int!)"), std::string::npos) << skills.content;
  ToolResult run = tools.Call("invoke_skill", R"({"skill": "busiest_threads"})");
  ASSERT_TRUE(run.ok) << run.content;
  ASSERT_FALSE(run.artifacts.empty());
  EXPECT_NE(run.content.find("is the busiest"), std::string::npos);
  EXPECT_EQ(session_.skill_findings.size(), 1u);
  EXPECT_FALSE(tools.Call("invoke_skill", R"({"skill": "thread_detail"})").ok);  // utid missing
  EXPECT_FALSE(tools.Call("invoke_skill", R"({"skill": "nope"})").ok);

  EXPECT_NE(tools.Call("lookup_sql_schema", R"({"table": "thread"})").content.find("utid"),
            std::string::npos);
  EXPECT_FALSE(tools.Call("lookup_sql_schema", R"({"table": "x; DROP TABLE y"})").ok);
  // Column meanings, not just names; module tables say which INCLUDE they need.
  const ToolResult states = tools.Call("lookup_sql_schema", R"({"table": "thread_state"})");
  ASSERT_TRUE(states.ok) << states.content;
  EXPECT_NE(states.content.find("the kernel function the thread blocked in"), std::string::npos)
      << states.content;
  const ToolResult frames = tools.Call("lookup_sql_schema", R"({"table": "android_frames"})");
  ASSERT_TRUE(frames.ok) << frames.content;
  EXPECT_NE(frames.content.find("INCLUDE PERFETTO MODULE android.frames.timeline"),
            std::string::npos) << frames.content;
  const ToolResult all = tools.Call("lookup_sql_schema", "{}");
  EXPECT_NE(all.content.find("android.frames.timeline: "), std::string::npos) << all.content;
  EXPECT_FALSE(tools.Call("lookup_knowledge", R"({"query": "zebra"})").ok);

  ASSERT_TRUE(tools.Call("submit_hypothesis", R"({"statement": "one thread dominates"})").ok);
  EXPECT_FALSE(tools.Call("resolve_hypothesis",
                          R"({"hypothesis_id": "H1", "status": "confirmed", "evidence": ["nope"]})").ok);
  const std::string resolve = R"({"hypothesis_id": "H1", "status": "confirmed", "evidence": [")" +
                              run.artifacts[0] + R"("]})";
  EXPECT_TRUE(tools.Call("resolve_hypothesis", resolve).ok);
  EXPECT_EQ(session_.hypotheses.open_count(), 0);
  EXPECT_TRUE(tools.Call("update_plan_phase", R"({"phase_id": "usage", "status": "done"})").ok);
  EXPECT_TRUE(tools.Call("flag_uncertainty", R"({"issue": "no frame data"})").ok);
  EXPECT_TRUE(tools.Call("write_analysis_note", R"({"note": "utid 5 is hot"})").ok);
  EXPECT_EQ(session_.uncertainties.size(), 1u);
  EXPECT_EQ(session_.notes.size(), 1u);
}

}  // namespace
}  // namespace tw::agent
