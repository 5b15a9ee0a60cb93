// Read speed of a packed integer column (storage/packed_int_vector.h), the cost every table scan,
// filter and sort pays per cell. The data is shaped like thread_state.dur: durations of up to a
// second, and in the "outliers" variants 1 row in 400 longer than 2^32 ns (a thread asleep for
// more than 4.3 s), the values that would otherwise force their chunk to 8 bytes a value.
// For A/B comparisons of the read path: `tw_column_read_benchmark --benchmark_repetitions=5`.

#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "libs/trace/storage/column.h"
#include "libs/trace/storage/packed_int_vector.h"
#include "libs/trace/storage/table.h"

namespace tw {
namespace {

constexpr uint32_t kRows = 4'000'000;

const PackedIntVector<int64_t>& Durations(bool outliers) {
  static PackedIntVector<int64_t>* columns[2] = {nullptr, nullptr};
  PackedIntVector<int64_t>*& column = columns[outliers ? 1 : 0];
  if (column) return *column;
  column = new PackedIntVector<int64_t>();
  std::mt19937_64 rng(17);
  for (uint32_t i = 0; i < kRows; ++i) {
    int64_t dur = static_cast<int64_t>(rng() % 1'000'000'000);
    if (outliers && rng() % 400 == 0) dur = 5'000'000'000 + static_cast<int64_t>(rng() % 1000);
    column->push_back(dur);
  }
  return *column;
}

// Every row in order, as a full scan reads a column.
void BM_ScanColumn(benchmark::State& state) {
  const PackedIntVector<int64_t>& column = Durations(state.range(0) != 0);
  for (auto _ : state) {
    int64_t sum = 0;
    for (uint32_t i = 0; i < kRows; ++i) sum += column[i];
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
  state.counters["MiB"] = static_cast<double>(column.memory_bytes()) / (1 << 20);
}
BENCHMARK(BM_ScanColumn)->ArgName("outliers")->Arg(0)->Arg(1);

// Every row through the Column interface, as the query layer reads a cell (a virtual GetInt
// per row): what a SQL scan or filter of the column pays.
void BM_ScanThroughColumnInterface(benchmark::State& state) {
  const bool outliers = state.range(0) != 0;
  static Table* tables[2] = {nullptr, nullptr};
  static IntColumn<int64_t>* columns[2] = {nullptr, nullptr};
  if (!columns[outliers]) {
    tables[outliers] = new Table("durations", "");
    columns[outliers] = new IntColumn<int64_t>(tables[outliers], "dur", false, kNone, "");
    const PackedIntVector<int64_t>& values = Durations(outliers);
    for (uint32_t i = 0; i < kRows; ++i) columns[outliers]->Append(values[i]);
  }
  const Column& column = *columns[outliers];
  for (auto _ : state) {
    int64_t matches = 0;
    for (uint32_t i = 0; i < kRows; ++i) matches += column.GetInt(i) > 500'000'000;
    benchmark::DoNotOptimize(matches);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_ScanThroughColumnInterface)->ArgName("outliers")->Arg(0)->Arg(1);

// Rows in a random order, as a sort's comparisons or an index-driven lookup read them.
void BM_RandomReads(benchmark::State& state) {
  const PackedIntVector<int64_t>& column = Durations(state.range(0) != 0);
  std::vector<uint32_t> order(kRows / 4);
  std::mt19937 rng(5);
  for (uint32_t& row : order) row = rng() % kRows;
  for (auto _ : state) {
    int64_t sum = 0;
    for (uint32_t row : order) sum += column[row];
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(order.size()));
}
BENCHMARK(BM_RandomReads)->ArgName("outliers")->Arg(0)->Arg(1);

}  // namespace
}  // namespace tw

BENCHMARK_MAIN();
