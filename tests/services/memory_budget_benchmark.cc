// trace-query's memory budget under load (issue #15): 16 concurrent queries over 13 traces of
// 0.3–20 MB, for budgets of 256 and 64 MB. Reports the server process's peak resident size
// (VmHWM) against its budget (target: ≤ 1.25×), how many queries answered, how many were
// refused for memory (a trace whose expected peak exceeds the budget: refused once and
// remembered), and how many loads the server ran.
//
//   build/tests/services/tw_memory_budget_benchmark [--benchmark_filter=...]
//
// The traces are generated once into $TMPDIR/tw_membench_traces (tracegen scenarios, one ~20 MB
// busy scroll, a synthetic scheduler trace) and reused by later runs.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "libs/rpc/trace_query_router.h"
#include "tests/services/service_process.h"
#include "tests/services/bench_traces.h"
#include "tracewise/v1/trace_query.pb.h"

namespace {

namespace fs = std::filesystem;

int64_t StatusKb(pid_t pid, const char* field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  const std::string prefix = std::string(field) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return std::atoll(line.c_str() + prefix.size());
  }
  return 0;
}

const char* const kQueries[] = {
    "SELECT COUNT(*), SUM(dur) FROM sched",
    "SELECT utid, SUM(dur) AS d FROM thread_state GROUP BY utid ORDER BY d DESC LIMIT 10",
    "SELECT name, COUNT(*) AS n FROM slice GROUP BY name ORDER BY n DESC LIMIT 20",
    "SELECT s.ts, s.dur, t.name FROM sched s JOIN thread t USING (utid) WHERE s.dur > 1000000 LIMIT 2000",
};

void BM_MemoryBudgetUnderLoad(benchmark::State& state) {
  const int64_t budget_mb = state.range(0);
  const std::vector<std::string>& traces = tw::testing::BenchTraces();
  const fs::path data = fs::temp_directory_path() / ("tw_membench_store_" + std::to_string(getpid()));
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(data);
    tw::testing::ServiceProcess server(
        TW_TRACE_QUERY_BINARY,
        {"--data-dir", data.string(), "--memory-budget-mb", std::to_string(budget_mb)});
    if (!server.ok()) {
      state.SkipWithError("trace-query did not start");
      return;
    }
    auto router = tw::rpc::TraceQueryRouter::Create(server.address());
    std::vector<std::string> ids;
    int64_t biggest = 0;
    for (const std::string& path : traces) {
      auto uploaded = (*router)->UploadFile(path, /*load=*/false);
      if (!uploaded.ok()) {
        state.SkipWithError(std::string(uploaded.status().message()).c_str());
        return;
      }
      ids.push_back(uploaded->trace_id);
      biggest = std::max(biggest, uploaded->size_bytes);
    }
    // The resident size the load starts from: the process with its traces stored, none loaded.
    const int64_t idle_kb = StatusKb(server.pid(), "VmRSS");
    state.ResumeTiming();

    std::atomic<int> ok{0}, refused{0}, other{0};
    std::vector<std::thread> clients;
    for (int c = 0; c < 16; ++c) {
      clients.emplace_back([&, c] {
        for (int round = 0; round < 4; ++round) {
          const std::string& id = ids[(c * 5 + round * 3) % ids.size()];
          tw::BackendQuery q{id, kQueries[(c + round) % 4]};
          q.timeout = absl::Seconds(120);
          auto r = (*router)->Query(q);
          if (r.ok()) {
            ++ok;
          } else if (r.status().code() == absl::StatusCode::kResourceExhausted) {
            ++refused;
            if (std::getenv("TW_MEMBENCH_VERBOSE")) {
              std::fprintf(stderr, "refused %s: %s\n", id.substr(0, 12).c_str(),
                           std::string(r.status().message()).c_str());
            }
          } else {
            ++other;
            std::fprintf(stderr, "query on %s failed: %s\n", id.substr(0, 12).c_str(),
                         r.status().ToString().c_str());
          }
        }
      });
    }
    for (auto& t : clients) t.join();

    state.PauseTiming();
    const int64_t peak_kb = StatusKb(server.pid(), "VmHWM");
    tracewise::v1::ListTracesResponse listed;
    int failed_state = 0;
    if ((*router)->ListTraces(&listed).ok()) {
      for (const auto& t : listed.traces()) failed_state += t.state() == tracewise::v1::TRACE_STATE_FAILED;
    }
    state.counters["budget_mb"] = static_cast<double>(budget_mb);
    state.counters["peak_rss_mb"] = static_cast<double>(peak_kb) / 1024.0;
    state.counters["peak_over_budget"] = static_cast<double>(peak_kb) / 1024.0 / static_cast<double>(budget_mb);
    state.counters["idle_rss_mb"] = static_cast<double>(idle_kb) / 1024.0;
    state.counters["largest_trace_mb"] = static_cast<double>(biggest) / (1 << 20);
    state.counters["queries_ok"] = ok.load();
    state.counters["queries_refused"] = refused.load();
    state.counters["queries_other_error"] = other.load();
    state.counters["traces_refused"] = failed_state;
    router->reset();
    server.Stop();
    fs::remove_all(data);
    state.ResumeTiming();
  }
}
BENCHMARK(BM_MemoryBudgetUnderLoad)->Arg(256)->Arg(64)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
