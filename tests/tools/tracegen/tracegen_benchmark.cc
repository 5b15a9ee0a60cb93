// How fast tracegen writes traces: the `large` scenario must write >= 50 MB/s. Reports bytes
// per second of trace written (the manifest is negligible).

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
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
