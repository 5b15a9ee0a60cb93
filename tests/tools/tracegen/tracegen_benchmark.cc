// How fast tracegen writes traces: the `large` scenario must write >= 50 MB/s (wall clock).
// Reports bytes per second of trace written (the manifest is negligible). Args: seconds of
// trace, compact_sched (1) or plain (0).

#include <cstdio>
#include <string>

#include "benchmark/benchmark.h"
#include "tools/tracegen/tracegen.h"

namespace {

void BM_TracegenLarge(benchmark::State& state) {
  tw::tracegen::TracegenOptions o;
  o.scenario = "large";
  o.duration_s = static_cast<double>(state.range(0));
  o.fps = 120;
  o.compact_sched = state.range(1) != 0;
  const std::string path = "/tmp/tw_tracegen_bench.pftrace";
  int64_t bytes = 0;
  for (auto _ : state) {
    // Overwriting a large file makes the kernel free its pages inside the timed region.
    state.PauseTiming();
    std::remove(path.c_str());
    state.ResumeTiming();
    auto truth = tw::tracegen::GenerateTrace(o, path);
    if (!truth.ok()) {
      state.SkipWithError(std::string(truth.status().message()).c_str());
      break;
    }
    bytes += truth->bytes;
  }
  state.SetBytesProcessed(bytes);
  std::remove(path.c_str());
  std::remove((path + ".truth.json").c_str());
}
BENCHMARK(BM_TracegenLarge)->Args({10, 1})->Args({10, 0})->Unit(benchmark::kMillisecond)
    ->Iterations(2)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
