#pragma once
// Shared by the agent tests: a synthetic scheduling trace loaded into a real database, a small
// skill library and strategies written for the tests (so they do not move with the shipped ones).

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "libs/agent/agent_tools.h"
#include "libs/agent/schema_provider.h"
#include "libs/agent/skill_runner.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tools/synth/sched_trace_writer.h"

namespace tw::agent::agent_test {

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

// Writes the files and loads the trace once per test binary.
class AgentTestEnv {
 public:
  static AgentTestEnv& Get() {
    static AgentTestEnv* env = new AgentTestEnv();
    return *env;
  }
  const std::filesystem::path& dir() const { return dir_; }
  LoadedTrace& trace() { return *trace_; }
  std::string skills_dir() const { return (dir_ / "skills").string(); }
  std::string strategies_dir() const { return (dir_ / "strategies").string(); }

 private:
  AgentTestEnv() {
    namespace fs = std::filesystem;
    dir_ = fs::temp_directory_path() / ("tw_agent_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "skills");
    fs::create_directories(dir_ / "strategies");
    std::ofstream(dir_ / "skills" / "busiest_threads.skill.yaml") << kBusiestThreads;
    std::ofstream(dir_ / "skills" / "thread_detail.skill.yaml") << kThreadDetail;
    std::ofstream(dir_ / "skills" / "frames_required.skill.yaml") << kFrames;
    std::ofstream(dir_ / "strategies" / "cpu.strategy.md") << kCpuStrategy;
    std::ofstream(dir_ / "strategies" / "general.strategy.md")
        << "---\nscene: general\nprocedure:\n  steps:\n    - skill: busiest_threads\n---\nbody\n";
    synth::SchedTraceOptions options;
    options.cpus = 4;
    options.duration_ns = 2'000'000'000;
    options.processes = 6;
    options.threads = 24;
    const std::string trace_path = (dir_ / "sched.pftrace").string();
    if (!synth::WriteSyntheticSchedTrace(options, trace_path).ok()) std::abort();
    auto trace = LoadTraceFile(trace_path);
    if (!trace.ok()) std::abort();
    trace_ = std::move(*trace);
    std::atexit([] { std::filesystem::remove_all(Get().dir_); });
  }

  std::filesystem::path dir_;
  std::unique_ptr<LoadedTrace> trace_;
};

#ifdef TW_SOURCE_DIR
// The shipped skills and strategies over the env's trace, and the tool context over them: what
// the agent loop's tests and benchmarks run the model's tools on.
class ShippedTools {
 public:
  ShippedTools()
      : env_(AgentTestEnv::Get()),
        library_(skills::SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diagnostics_)),
        strategies_(*strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies")),
        queries_(&env_.trace().db()),
        runner_(library_, queries_),
        schema_(&env_.trace().db()) {}

  ToolContext Tools() {
    ToolContext ctx;
    ctx.skills = &runner_;
    ctx.skill_library = &library_;
    ctx.sql = &queries_;
    ctx.schema = &schema_;
    ctx.strategies = &strategies_;
    return ctx;
  }

 protected:
  AgentTestEnv& env_;
  std::vector<skills::Diagnostic> diagnostics_;
  skills::SkillLibrary library_;
  strategy::StrategyLibrary strategies_;
  skills::TraceDatabaseRunner queries_;
  LocalSkillRunner runner_;
  LocalSchemaProvider schema_;
};
#endif

}  // namespace tw::agent::agent_test
