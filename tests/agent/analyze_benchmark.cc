// End-to-end time of the main job in process: load a trace, then run the offline analyst with
// the shipped strategies and skills (issue target: under 5 s for a 20 MB trace), and the
// diagnosis alone on a loaded trace (BM_*Diagnosis; #19's target: at most 1 s for a 20 MB trace). Two ~20 MB
// traces: a scheduler-only one (8 CPUs, 19 s, compact_sched) and an Android scroll from tracegen
// (`large`: frame timeline, binder, atrace, heavy background load; 2.8 s at 90 Hz, compact_sched,
// ~1.1 M events) — the second is what a phone trace looks like.
//
//   ./build/tests/agent/tw_analyze_benchmark                  # generates both traces
//   TRACEWISE_ANALYZE_TRACE=path.pftrace ./build/tests/agent/tw_analyze_benchmark
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_join.h"
#include "libs/agent/offline_analyst.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tools/synth/sched_trace_writer.h"
#include "tools/tracegen/tracegen.h"

namespace {

namespace fs = std::filesystem;

// The trace to analyse: $TRACEWISE_ANALYZE_TRACE, else a generated scheduling trace of ~20 MB.
const std::string& TracePath() {
  static const std::string path = [] {
    if (const char* env = std::getenv("TRACEWISE_ANALYZE_TRACE"); env && *env) return std::string(env);
    const std::string out =
        (fs::temp_directory_path() / ("tw_analyze_bench_" + std::to_string(getpid()) + ".pftrace")).string();
    tw::synth::SchedTraceOptions options;
    options.cpus = 8;
    options.duration_ns = 19'000'000'000;
    options.encoding = tw::synth::SchedEncoding::kCompact;
    options.print_rate_hz = 200;
    if (!tw::synth::WriteSyntheticSchedTrace(options, out).ok()) std::abort();
    std::atexit([] { std::remove(TracePath().c_str()); });
    return out;
  }();
  return path;
}

// tracegen's busy Android scroll, sized to ~20 MB.
const std::string& AndroidTracePath() {
  static const std::string path = [] {
    if (const char* env = std::getenv("TRACEWISE_ANALYZE_TRACE"); env && *env) return std::string(env);
    const std::string out =
        (fs::temp_directory_path() / ("tw_analyze_bench_android_" + std::to_string(getpid()) + ".pftrace")).string();
    tw::tracegen::TracegenOptions o;
    o.scenario = "large";
    o.duration_s = 2.8;
    o.fps = 90;
    o.compact_sched = true;
    if (!tw::tracegen::GenerateTrace(o, out).ok()) std::abort();
    std::atexit([] { std::remove(AndroidTracePath().c_str()); });
    return out;
  }();
  return path;
}

void Analyze(benchmark::State& state, const std::string& path, const char* question) {
  std::vector<tw::skills::Diagnostic> diagnostics;
  const auto library = tw::skills::SkillLibrary::LoadDirectory(tw::skills::DefaultSkillsDir(), &diagnostics);
  auto strategies = tw::strategy::StrategyLibrary::Load(tw::strategy::DefaultStrategiesDir());
  if (!strategies.ok()) {
    state.SkipWithError(std::string(strategies.status().message()).c_str());
    return;
  }
  size_t findings = 0;
  for (auto _ : state) {
    auto trace = tw::LoadTraceFile(path);
    if (!trace.ok()) {
      state.SkipWithError(std::string(trace.status().message()).c_str());
      return;
    }
    tw::skills::TraceDatabaseRunner queries(&(*trace)->db());
    tw::agent::LocalSkillRunner runner(library, queries);
    tw::verify::LocalVerifierClient verifier;
    tw::agent::OfflineAnalyst analyst(*strategies, runner, &verifier);
    const auto report = analyst.Analyze(question, path);
    findings = report.findings.size();
  }
  state.counters["trace_MB"] = static_cast<double>(fs::file_size(path)) / 1e6;
  state.counters["findings"] = static_cast<double>(findings);
}

// The diagnosis alone: the trace is loaded once, each iteration runs the analyst afresh (no skill
// result is reused across iterations).
void Diagnose(benchmark::State& state, const std::string& path, const char* question) {
  std::vector<tw::skills::Diagnostic> diagnostics;
  const auto library = tw::skills::SkillLibrary::LoadDirectory(tw::skills::DefaultSkillsDir(), &diagnostics);
  auto strategies = tw::strategy::StrategyLibrary::Load(tw::strategy::DefaultStrategiesDir());
  auto trace = tw::LoadTraceFile(path);
  if (!strategies.ok() || !trace.ok()) {
    state.SkipWithError(!strategies.ok() ? std::string(strategies.status().message()).c_str()
                                         : std::string(trace.status().message()).c_str());
    return;
  }
  tw::skills::TraceDatabaseRunner queries(&(*trace)->db());
  size_t findings = 0;
  std::string scenes;
  for (auto _ : state) {
    tw::agent::LocalSkillRunner runner(library, queries);
    tw::verify::LocalVerifierClient verifier;
    tw::agent::OfflineAnalyst analyst(*strategies, runner, &verifier);
    const auto report = analyst.Analyze(question, path);
    findings = report.findings.size();
    scenes = absl::StrJoin(report.scenes, "+");
  }
  state.counters["trace_MB"] = static_cast<double>(fs::file_size(path)) / 1e6;
  state.counters["findings"] = static_cast<double>(findings);
  state.SetLabel(scenes);
}

void BM_AndroidScrollDiagnosis(benchmark::State& state, const char* question) {
  Diagnose(state, AndroidTracePath(), question);
}
void BM_SchedTraceDiagnosis(benchmark::State& state, const char* question) {
  Diagnose(state, TracePath(), question);
}

void BM_SchedTrace(benchmark::State& state, const char* question) {
  Analyze(state, TracePath(), question);
}
void BM_AndroidScroll(benchmark::State& state, const char* question) {
  Analyze(state, AndroidTracePath(), question);
}

BENCHMARK_CAPTURE(BM_SchedTrace, scrolling, "why does scrolling stutter?")
    ->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_SchedTrace, cpu, "which threads keep the CPUs busy?")
    ->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_SchedTrace, general, "what is in this trace?")
    ->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_AndroidScroll, scrolling, "why does scrolling stutter?")
    ->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_AndroidScroll, cpu, "which threads keep the CPUs busy?")
    ->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_AndroidScroll, general, "what is in this trace?")
    ->Unit(benchmark::kMillisecond)->Iterations(2);

BENCHMARK_CAPTURE(BM_AndroidScrollDiagnosis, scrolling, "why does scrolling stutter?")
    ->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_AndroidScrollDiagnosis, general, "what's wrong with this trace?")
    ->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_AndroidScrollDiagnosis, startup, "why is cold start slow?")
    ->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_AndroidScrollDiagnosis, power, "why does the phone get hot?")
    ->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_SchedTraceDiagnosis, general, "what's wrong with this trace?")
    ->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
