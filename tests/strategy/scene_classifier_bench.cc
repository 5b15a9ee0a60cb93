// Scene classification runs on every question: measure it on the shipped strategies.
// Run: ./build/tests/strategy/tw_strategy_bench
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "libs/strategy/strategy_library.h"

namespace {

void BM_ClassifyQuestion(benchmark::State& state) {
  auto library = tw::strategy::StrategyLibrary::Load(tw::strategy::DefaultStrategiesDir());
  if (!library.ok()) {
    state.SkipWithError(std::string(library.status().message()).c_str());
    return;
  }
  const char* questions[] = {"why does scrolling stutter in the feed?",
                             "冷启动为什么这么慢", "what is in this trace?",
                             "tapping the like button responds slowly"};
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(library->classifier().Classify(questions[i++ % 4]));
  }
}
BENCHMARK(BM_ClassifyQuestion);

}  // namespace
