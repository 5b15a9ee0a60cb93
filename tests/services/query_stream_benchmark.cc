// Rows per second a client receives from trace-query's streamed Query over loopback (issue
// target: >= 1 M rows/s). Starts the real service process, uploads a synthetic trace and
// streams `SELECT ts, dur, cpu, utid FROM sched` (about 1.3 M rows) to a GrpcQueryBackend.
//
//   ./build/tests/services/tw_query_stream_benchmark
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>

#include "libs/rpc/grpc_query_backend.h"
#include "tests/services/service_process.h"
#include "tools/synth/sched_trace_writer.h"

namespace {

namespace fs = std::filesystem;

void BM_QueryStream(benchmark::State& state) {
  const fs::path dir = fs::temp_directory_path() / ("tw_qbench_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  tw::synth::SchedTraceOptions options;
  options.cpus = 8;
  options.duration_ns = 15'000'000'000;
  options.encoding = tw::synth::SchedEncoding::kCompact;
  const std::string trace = (dir / "bench.pftrace").string();
  if (!tw::synth::WriteSyntheticSchedTrace(options, trace).ok()) {
    state.SkipWithError("cannot write the trace");
    return;
  }
  tw::testing::ServiceProcess server(TW_TRACE_QUERY_BINARY,
                                     {"--data-dir", (dir / "data").string()});
  if (!server.ok()) {
    state.SkipWithError("the service did not start");
    return;
  }
  tw::rpc::GrpcQueryBackend backend(server.address());
  auto id = backend.UploadFile(trace);
  if (!id.ok() || !backend.Query({*id, "SELECT 1"}).ok()) {  // upload + load, not timed
    state.SkipWithError("upload or load failed");
    return;
  }
  int64_t rows = 0;
  tw::RowStream stream;
  stream.batch_rows = 4000;
  stream.on_rows = [&](std::vector<std::vector<tw::SqlValue>>&& batch) {
    rows += static_cast<int64_t>(batch.size());
    return true;
  };
  for (auto _ : state) {
    tw::BackendQuery q{*id, "SELECT ts, dur, cpu, utid FROM sched"};
    q.stream = &stream;
    if (!backend.Query(q).ok()) state.SkipWithError("query failed");
  }
  state.counters["rows_per_s"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsRate);
  state.counters["rows"] = static_cast<double>(rows) / static_cast<double>(state.iterations());
  server.Stop();
  fs::remove_all(dir);
}
BENCHMARK(BM_QueryStream)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
