// The sorter alone on the mixed shape's stream layout: 8 cpus, each feeding three streams
// (plain ftrace cpu_idle, compact sched_switch, compact sched_waking) in bundles, as the proto
// importer pushes them; then the merge into a sink that only looks at each event. Isolates
// PackedEventQueue's encode/decode and the merge from the importer and the trackers, for quick
// A/B comparisons (`tw_sorter_benchmark --benchmark_repetitions=9`, compare the minimum).

#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "libs/trace/sorter/event_sorter.h"

namespace tw {
namespace {

struct Pushed {
  uint32_t cpu;
  uint32_t stream;
  Event event;
};

// One bundle per cpu per 10 ms of trace, each kind in timestamp order within the bundle.
std::vector<std::vector<Pushed>> MixedBundles(int cpus, int64_t seconds) {
  std::mt19937_64 rng(42);
  std::vector<std::vector<Pushed>> bundles;
  const int64_t bundle_ns = 10'000'000;
  for (int64_t start = 0; start < seconds * 1'000'000'000; start += bundle_ns) {
    for (int cpu = 0; cpu < cpus; ++cpu) {
      std::vector<Pushed> bundle;
      const uint32_t first_stream = 2 + 3 * static_cast<uint32_t>(cpu);
      auto kind = [&](uint32_t stream, int64_t mean_gap, auto fill) {
        for (int64_t ts = start + static_cast<int64_t>(rng() % mean_gap); ts < start + bundle_ns;
             ts += 1 + static_cast<int64_t>(rng() % (2 * mean_gap))) {
          Event e;
          e.ts = ts;
          e.cpu = static_cast<uint16_t>(cpu);
          fill(e);
          bundle.push_back({static_cast<uint32_t>(cpu), stream, e});
        }
      };
      kind(first_stream, 45'000, [&](Event& e) {
        e.type = EventType::kCpuIdle;
        e.pid = static_cast<int32_t>(rng() % 4000);
        e.ftrace_row = 1;
        e.cpu_counter = {static_cast<uint32_t>(cpu), 0, (rng() & 1) ? 0.0 : 4294967295.0};
      });
      kind(first_stream + 1, 40'000, [&](Event& e) {
        e.type = EventType::kSchedSwitch;
        e.compact = 1;
        e.sched_switch = {0, static_cast<int32_t>(100 + rng() % 4000), 0,
                          static_cast<int16_t>(100 + rng() % 40), 0,
                          static_cast<StringId>(1 + rng() % 325), static_cast<int32_t>(rng() % 3)};
      });
      kind(first_stream + 2, 70'000, [&](Event& e) {
        e.type = EventType::kSchedWaking;
        e.compact = 1;
        e.sched_waking = {static_cast<int32_t>(100 + rng() % 4000), static_cast<int32_t>(rng() % 8),
                          120, static_cast<StringId>(1 + rng() % 325), 0, 0, 0, 0, 0};
      });
      bundles.push_back(std::move(bundle));
    }
  }
  return bundles;
}

void BM_SortMixedShape(benchmark::State& state) {
  const auto bundles = MixedBundles(8, state.range(0));
  size_t events = 0;
  for (const auto& b : bundles) events += b.size();
  for (auto _ : state) {
    int64_t checksum = 0;
    EventSorter sorter(0, [&](Event& e) { checksum += e.ts ^ e.pid; });
    for (const auto& bundle : bundles) {
      sorter.BeginBatch(EventSorter::QueueForCpu(bundle.front().cpu));
      for (const Pushed& p : bundle) sorter.Push(p.cpu, p.stream, p.event);
      sorter.EndBatch();
    }
    sorter.Finish();
    benchmark::DoNotOptimize(checksum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * events));
}
BENCHMARK(BM_SortMixedShape)->Arg(10)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tw

BENCHMARK_MAIN();
