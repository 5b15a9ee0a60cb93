// End-to-end time of the main job in process: load a trace, then run the offline analyst with
// the shipped strategies and skills (issue target: under 5 s for a 20 MB trace).
//
//   ./build/tests/agent/tw_analyze_benchmark                  # generates a ~20 MB trace
//   TRACEWISE_ANALYZE_TRACE=path.pftrace ./build/tests/agent/tw_analyze_benchmark
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "libs/agent/offline_analyst.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tools/synth/sched_trace_writer.h"

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

void BM_LoadAndAnalyze(benchmark::State& state, const char* question) {
  std::vector<tw::skills::Diagnostic> diagnostics;
  const auto library = tw::skills::SkillLibrary::LoadDirectory(tw::skills::DefaultSkillsDir(), &diagnostics);
  auto strategies = tw::strategy::StrategyLibrary::Load(tw::strategy::DefaultStrategiesDir());
  if (!strategies.ok()) {
    state.SkipWithError(std::string(strategies.status().message()).c_str());
    return;
  }
  const std::string& path = TracePath();
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

BENCHMARK_CAPTURE(BM_LoadAndAnalyze, scrolling, "why does scrolling stutter?")
    ->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_LoadAndAnalyze, cpu, "which threads keep the CPUs busy?")
    ->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_LoadAndAnalyze, general, "what is in this trace?")
    ->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
