// What the trace-query router costs and how fast it fails over (issue #15):
// - BM_QueryDirect / BM_QueryRouted: one small query on a loaded trace, straight to its replica
//   vs. through the router over three replicas (static list). The difference is the routing
//   cost per call (target < 0.2 ms).
// - BM_FailoverAfterKill: the owner of a ~20 MB trace is killed (SIGKILL) and the time until
//   the next query on that trace succeeds is measured: the router notices, the next-ranked
//   replica loads the trace from the shared store and answers (target < 3 s).
//
//   build/tests/services/tw_router_benchmark
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "libs/rpc/grpc_query_backend.h"
#include "libs/rpc/trace_query_router.h"
#include "tests/services/bench_traces.h"
#include "tests/services/service_process.h"

namespace {

namespace fs = std::filesystem;

struct Replicas {
  explicit Replicas(const fs::path& store) {
    for (int i = 0; i < 3; ++i) {
      processes.push_back(std::make_unique<tw::testing::ServiceProcess>(
          TW_TRACE_QUERY_BINARY, std::vector<std::string>{"--data-dir", store.string(), "--memory-budget-mb", "2048"}));
      spec += (i ? "," : "") + processes.back()->address();
    }
  }
  tw::testing::ServiceProcess* At(const std::string& endpoint) {
    for (auto& p : processes) {
      if (p->address() == endpoint) return p.get();
    }
    return nullptr;
  }
  std::vector<std::unique_ptr<tw::testing::ServiceProcess>> processes;
  std::string spec;
};

fs::path StoreDir(const char* what) {
  return fs::temp_directory_path() / (std::string("tw_routerbench_") + what + "_" + std::to_string(getpid()));
}

// A small trace (the smallest of the shared set) loaded on its owner; every iteration is one
// "SELECT 1"-sized query.
void QueryLoop(benchmark::State& state, bool routed) {
  const fs::path store = StoreDir(routed ? "routed" : "direct");
  fs::remove_all(store);
  {
    Replicas replicas(store);
    auto router = tw::rpc::TraceQueryRouter::Create(replicas.spec);
    const std::string path = tw::testing::BenchTraces()[8];  // startup_cold, ~1 MB
    auto uploaded = (*router)->UploadFile(path);
    if (!uploaded.ok() || !uploaded->load_status.ok()) {
      state.SkipWithError("upload failed");
      return;
    }
    tw::rpc::GrpcQueryBackend direct(uploaded->owner);
    tw::QueryBackend& backend = routed ? static_cast<tw::QueryBackend&>(**router) : direct;
    tw::BackendQuery q{uploaded->trace_id, "SELECT COUNT(*) FROM process"};
    for (int i = 0; i < 20; ++i) (void)backend.Query(q);  // warm: connections, index, statement cache
    for (auto _ : state) {
      auto r = backend.Query(q);
      if (!r.ok()) {
        state.SkipWithError(std::string(r.status().message()).c_str());
        break;
      }
      benchmark::DoNotOptimize(r->rows.size());
    }
  }
  fs::remove_all(store);
}

void BM_QueryDirect(benchmark::State& state) { QueryLoop(state, false); }
void BM_QueryRouted(benchmark::State& state) { QueryLoop(state, true); }
BENCHMARK(BM_QueryDirect)->Unit(benchmark::kMicrosecond)->MinTime(2.0)->UseRealTime();
BENCHMARK(BM_QueryRouted)->Unit(benchmark::kMicrosecond)->MinTime(2.0)->UseRealTime();

void BM_FailoverAfterKill(benchmark::State& state) {
  const std::string path = tw::testing::BenchTraces()[0];  // the ~20 MB busy scroll
  double worst = 0, total = 0;
  int runs = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const fs::path store = StoreDir("failover");
    fs::remove_all(store);
    Replicas replicas(store);
    auto router = tw::rpc::TraceQueryRouter::Create(replicas.spec);
    auto uploaded = (*router)->UploadFile(path);
    if (!uploaded.ok() || !uploaded->load_status.ok()) {
      state.SkipWithError("upload failed");
      return;
    }
    tw::BackendQuery q{uploaded->trace_id, "SELECT COUNT(*) FROM sched"};
    if (!(*router)->Query(q).ok()) {
      state.SkipWithError("query before the kill failed");
      return;
    }
    state.ResumeTiming();
    const auto start = std::chrono::steady_clock::now();
    replicas.At(uploaded->owner)->Kill();
    auto r = (*router)->Query(q);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.PauseTiming();
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      return;
    }
    worst = std::max(worst, seconds);
    total += seconds;
    ++runs;
    state.counters["trace_mb"] = static_cast<double>(uploaded->size_bytes) / (1 << 20);
    router->reset();
    replicas.processes.clear();
    fs::remove_all(store);
    state.ResumeTiming();
  }
  state.counters["failover_s_mean"] = runs ? total / runs : 0;
  state.counters["failover_s_worst"] = worst;
}
BENCHMARK(BM_FailoverAfterKill)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
