// The offline analyst end to end on a real (synthetic) trace in a real SQLite-backed database,
// with a small strategy and skills written for the test: procedure order, threshold drills,
// not-supported steps, findings, causal chain, verification and both renderings.
#include "libs/agent/offline_analyst.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "libs/agent/report_render.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/trace_loader.h"
#include "tools/synth/sched_trace_writer.h"

namespace tw::agent {
namespace {

namespace fs = std::filesystem;

constexpr char kBusiestThreads[] = R"yaml(name: busiest_threads
version: "1"
category: cpu
description: Threads by CPU time.
steps:
  - id: threads
    sql: |
      SELECT utid, SUM(dur) AS cpu_ns, COUNT(*) AS slices
      FROM sched WHERE utid != 0 GROUP BY utid ORDER BY cpu_ns DESC LIMIT 5
    display:
      title: Busiest threads
      columns:
        - {name: cpu_ns, type: duration_ns}
        - {name: slices, type: number}
  - id: verdict
    diagnose:
      - id: busy
        over: threads
        condition: row.cpu_ns > 0
        severity: warning
        title: "Thread {{ row.utid }} is the busiest"
        description: "It ran {{ row.slices }} slices."
        suggestions: ["Check what thread {{ row.utid }} does."]
        max_findings: 1
)yaml";

constexpr char kThreadDetail[] = R"yaml(name: thread_detail
version: "1"
category: cpu
description: Where one thread's time went.
inputs:
  - {name: utid, type: int, required: true}
steps:
  - id: states
    sql: |
      SELECT state, SUM(dur) AS total_ns FROM thread_state WHERE utid = :utid
      GROUP BY state ORDER BY total_ns DESC
    display:
      columns:
        - {name: total_ns, type: duration_ns}
  - id: verdict
    diagnose:
      - id: top_state
        over: states
        condition: "row.total_ns > 0"
        severity: critical
        title: "Thread {{ inputs.utid }} spends most time in state {{ row.state }}"
        description: "{{ row.total_ns }} ns in that state."
        max_findings: 1
)yaml";

constexpr char kFrames[] = R"yaml(name: frames_required
version: "1"
category: scrolling
description: Needs frame timeline data.
requires:
  tables: [actual_frame_timeline_slice]
steps:
  - id: frames
    sql: SELECT COUNT(*) AS n FROM actual_frame_timeline_slice
)yaml";

constexpr char kCpuStrategy[] = R"(---
scene: cpu
keywords: [cpu]
plan_aspects: [busy threads]
phases:
  - {id: usage, critical_skills: [busiest_threads], mandatory: true}
  - {id: frames, critical_skills: [frames_required], mandatory: true}
procedure:
  steps:
    - skill: busiest_threads
    - skill: frames_required
  drills:
    - id: detail
      skill: thread_detail
      over: busiest_threads
      where: "row.cpu_ns > 0"
      max_items: 2
      params: {utid: "row.utid"}
      why: The two busiest threads get a state breakdown.
    - id: broken
      skill: thread_detail
      over: busiest_threads
      max_items: 1
      params: {utid: "row.no_such_column"}
---
How to look at CPUs.
)";

class OfflineAnalystTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("tw_offline_" + std::to_string(getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_ / "skills");
    fs::create_directories(*dir_ / "strategies");
    std::ofstream(*dir_ / "skills" / "busiest_threads.skill.yaml") << kBusiestThreads;
    std::ofstream(*dir_ / "skills" / "thread_detail.skill.yaml") << kThreadDetail;
    std::ofstream(*dir_ / "skills" / "frames_required.skill.yaml") << kFrames;
    std::ofstream(*dir_ / "strategies" / "cpu.strategy.md") << kCpuStrategy;
    std::ofstream(*dir_ / "strategies" / "general.strategy.md")
        << "---\nscene: general\nprocedure:\n  steps:\n    - skill: busiest_threads\n---\nbody\n";
    synth::SchedTraceOptions options;
    options.cpus = 4;
    options.duration_ns = 2'000'000'000;
    options.processes = 6;
    options.threads = 24;
    const std::string trace_path = (*dir_ / "sched.pftrace").string();
    ASSERT_TRUE(synth::WriteSyntheticSchedTrace(options, trace_path).ok());
    auto trace = LoadTraceFile(trace_path);
    ASSERT_TRUE(trace.ok()) << trace.status();
    trace_ = trace->release();
  }
  static void TearDownTestSuite() {
    delete trace_;
    fs::remove_all(*dir_);
    delete dir_;
  }

  AnalysisReport Analyze(const std::string& question) {
    std::vector<skills::Diagnostic> diagnostics;
    skills::SkillLibrary library =
        skills::SkillLibrary::LoadDirectory((*dir_ / "skills").string(), &diagnostics);
    for (const auto& d : diagnostics) ADD_FAILURE() << d.ToString();
    auto strategies = strategy::StrategyLibrary::Load((*dir_ / "strategies").string());
    EXPECT_TRUE(strategies.ok()) << strategies.status();
    skills::TraceDatabaseRunner queries(&trace_->db());
    LocalSkillRunner runner(library, queries);
    verify::LocalVerifierClient verifier;
    OfflineAnalyst analyst(*strategies, runner, &verifier);
    return analyst.Analyze(question, "sched.pftrace");
  }

  static const AnalysisStep* Step(const AnalysisReport& r, const std::string& id) {
    for (const auto& s : r.steps) {
      if (s.id == id) return &s;
    }
    return nullptr;
  }

  static fs::path* dir_;
  static LoadedTrace* trace_;
};

fs::path* OfflineAnalystTest::dir_ = nullptr;
LoadedTrace* OfflineAnalystTest::trace_ = nullptr;

TEST_F(OfflineAnalystTest, RunsTheProcedureWithDrillsAndNotSupportedSteps) {
  AnalysisReport r = Analyze("which threads keep the cpu busy?");
  EXPECT_EQ(r.scene, "cpu");
  EXPECT_EQ(r.scene_matched_by, "keyword");
  EXPECT_TRUE(r.deterministic);
  ASSERT_NE(Step(r, "busiest_threads"), nullptr);
  EXPECT_EQ(Step(r, "busiest_threads")->status, "ok");
  ASSERT_NE(Step(r, "frames_required"), nullptr);
  EXPECT_EQ(Step(r, "frames_required")->status, "not_supported");
  // The drill ran on the two busiest threads only (max_items), with the threshold's reason.
  ASSERT_NE(Step(r, "detail[0]"), nullptr);
  ASSERT_NE(Step(r, "detail[1]"), nullptr);
  EXPECT_EQ(Step(r, "detail[2]"), nullptr);
  EXPECT_EQ(Step(r, "detail[0]")->status, "ok");
  EXPECT_EQ(Step(r, "detail[0]")->why, "The two busiest threads get a state breakdown.");
  // A drill whose parameter reads a column that does not exist fails on its own, precisely.
  const AnalysisStep* broken = Step(r, "broken[0]");
  ASSERT_NE(broken, nullptr);
  EXPECT_EQ(broken->status, "failed");
  EXPECT_NE(broken->message.find("no_such_column"), std::string::npos) << broken->message;

  bool frames_limit = false;
  for (const auto& l : r.limits) frames_limit |= l.find("frames_required") != std::string::npos;
  EXPECT_TRUE(frames_limit);
}

TEST_F(OfflineAnalystTest, RanksFindingsBuildsTheChainAndPassesTheVerifier) {
  AnalysisReport r = Analyze("cpu usage");
  ASSERT_GE(r.findings.size(), 3u);
  EXPECT_EQ(r.findings[0].id, "F1");
  EXPECT_EQ(r.findings[0].severity, FindingSeverity::kCritical);
  EXPECT_EQ(r.findings.back().severity, FindingSeverity::kHigh);
  for (const auto& f : r.findings) {
    ASSERT_EQ(f.evidence.size(), 1u);
    EXPECT_NE(r.FindArtifact(f.evidence[0]), nullptr) << f.title;
  }
  // Symptom (busiest thread) then the drill's finding about it.
  ASSERT_EQ(r.causal_chain.size(), 2u);
  EXPECT_NE(r.causal_chain[0].statement.find("is the busiest"), std::string::npos);
  EXPECT_NE(r.causal_chain[1].statement.find("spends most time"), std::string::npos);
  ASSERT_EQ(r.recommendations.size(), 1u);
  EXPECT_NE(r.recommendations[0].find("Check what thread"), std::string::npos);

  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0].status, "done");
  EXPECT_EQ(r.phases[1].status, "not_supported");
  for (const auto& issue : r.verifier_issues) {
    EXPECT_NE(issue.severity, verify::IssueSeverity::kError) << issue.kind << ": " << issue.message;
  }
  EXPECT_TRUE(r.verified);
}

TEST_F(OfflineAnalystTest, RendersMarkdownAndJson) {
  AnalysisReport r = Analyze("cpu usage");
  const std::string md = RenderMarkdown(r);
  for (const char* section : {"# Tracewise diagnosis", "## Key findings", "## Causal chain",
                              "## Recommendations", "## Evidence", "## What this trace could not answer",
                              "## Method", "## Verification", "deterministic"}) {
    EXPECT_NE(md.find(section), std::string::npos) << section;
  }
  const auto json = nlohmann::json::parse(RenderJson(r));
  EXPECT_EQ(json["scene"], "cpu");
  EXPECT_EQ(json["findings"].size(), r.findings.size());
  ASSERT_FALSE(json["artifacts"].empty());
  const auto& artifact = json["artifacts"][0];
  EXPECT_FALSE(artifact["rows"].empty());
  EXPECT_FALSE(artifact["sql"].get<std::string>().empty());
  EXPECT_TRUE(json["verified"].get<bool>());
}

TEST_F(OfflineAnalystTest, UnmatchedQuestionsFallBackToGeneral) {
  AnalysisReport r = Analyze("tell me something");
  EXPECT_EQ(r.scene, "general");
  EXPECT_EQ(r.scene_matched_by, "fallback");
  ASSERT_FALSE(r.steps.empty());
  EXPECT_EQ(r.steps[0].skill, "busiest_threads");
}

}  // namespace
}  // namespace tw::agent
