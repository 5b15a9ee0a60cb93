// Import throughput of small synthetic sched traces, plain and compact_sched encoded: for quick
// A/B comparisons while optimising the importer (`tw_import_benchmark --benchmark_filter=...`).
// Each trace is generated once per process into the temp dir and imported every iteration.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "benchmark/benchmark.h"
#include "libs/trace/trace_loader.h"
#include "tools/synth/sched_trace_writer.h"

namespace tw {
namespace {

struct GeneratedTrace {
  std::string path;
  synth::SchedTraceSummary summary;
};

// Traces are cached by (encoding, cpus, milliseconds) and deleted at exit.
const GeneratedTrace& TraceFor(synth::SchedEncoding encoding, int cpus, int ms) {
  static std::map<std::string, GeneratedTrace>* cache = [] {
    auto* c = new std::map<std::string, GeneratedTrace>();
    std::atexit([] {
      for (auto& [key, t] : *cache) std::remove(t.path.c_str());
    });
    return c;
  }();
  const std::string key = std::string(synth::SchedEncodingName(encoding)) + "_" +
                          std::to_string(cpus) + "cpu_" + std::to_string(ms) + "ms";
  auto it = cache->find(key);
  if (it != cache->end()) return it->second;
  const char* tmp = std::getenv("TMPDIR");
  GeneratedTrace t;
  t.path = std::string(tmp && *tmp ? tmp : "/tmp") + "/tw_import_benchmark_" +
           std::to_string(getpid()) + "_" + key + ".pb";
  synth::SchedTraceOptions o;
  o.encoding = encoding;
  o.cpus = static_cast<uint32_t>(cpus);
  o.duration_ns = int64_t{ms} * 1'000'000;
  o.print_rate_hz = 100;
  if (absl::Status s = synth::WriteSyntheticSchedTrace(o, t.path, &t.summary); !s.ok()) {
    std::fprintf(stderr, "cannot generate %s: %s\n", t.path.c_str(),
                 std::string(s.message()).c_str());
    std::abort();
  }
  return cache->emplace(key, std::move(t)).first->second;
}

void BM_ImportSched(benchmark::State& state, synth::SchedEncoding encoding) {
  const GeneratedTrace& trace =
      TraceFor(encoding, static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  int64_t events = 0;
  for (auto _ : state) {
    auto loaded = LoadTraceFile(trace.path);
    if (!loaded.ok()) {
      state.SkipWithError(std::string(loaded.status().message()).c_str());
      return;
    }
    events = (*loaded)->info().events;
    benchmark::DoNotOptimize(loaded);
  }
  state.SetItemsProcessed(state.iterations() * events);  // items/s = imported events/s
  state.SetBytesProcessed(state.iterations() * trace.summary.bytes);
  state.counters["events"] = static_cast<double>(events);
  state.counters["file_bytes"] = static_cast<double>(trace.summary.bytes);
}

// Args: cpus, trace length in ms.
BENCHMARK_CAPTURE(BM_ImportSched, plain, synth::SchedEncoding::kPlain)
    ->Args({4, 500})
    ->Args({8, 2000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ImportSched, compact, synth::SchedEncoding::kCompact)
    ->Args({4, 500})
    ->Args({8, 2000})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tw

BENCHMARK_MAIN();
