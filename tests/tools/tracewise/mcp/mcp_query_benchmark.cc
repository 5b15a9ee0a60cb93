// Round trip of `tools/call query` through a real `tracewise mcp` process over its stdio pipes
// (issue 18's figure: < 5 ms p50 on a loaded trace): the request line written, framed, parsed,
// validated, run on a worker against the loaded trace, the result (structured + text) serialised
// and read back as one line. The trace is a 10 s tracegen scroll (about 0.5 M events), loaded
// once before timing.
//
//   ./build/tests/tools/tracewise/mcp/tw_mcp_query_benchmark
//
// Each benchmark reports p50_ms / p90_ms / p99_ms of the round trip over its iterations, the
// engine's own SQL time (engine_p50_ms, from the result's elapsed_ns) and what the protocol adds
// (overhead_p50_ms: framing, dispatch, validation, JSON and text both ways).

#include <benchmark/benchmark.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/tracegen/tracegen.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// `tracewise mcp` as a child process with line-level access to its stdin and stdout.
class McpProcess {
 public:
  McpProcess() {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], STDIN_FILENO);
      dup2(out[1], STDOUT_FILENO);
      close(in[1]);
      close(out[0]);
      execl(TW_TRACEWISE_BIN, TW_TRACEWISE_BIN, "mcp", "--skills", TW_SOURCE_DIR "/skills",
            "--strategies", TW_SOURCE_DIR "/strategies", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = fdopen(in[1], "w");
    from_ = fdopen(out[0], "r");
  }
  ~McpProcess() {
    if (to_) fclose(to_);  // EOF: the server exits
    if (from_) fclose(from_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  bool ok() const { return to_ != nullptr && from_ != nullptr; }

  // Sends a request and returns the response with its id (notifications before it skipped).
  json Call(int id, const std::string& method, json params) {
    const std::string line =
        json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}.dump() + "\n";
    fwrite(line.data(), 1, line.size(), to_);
    fflush(to_);
    for (;;) {
      std::string response;
      for (int c; (c = fgetc(from_)) != EOF && c != '\n';) response.push_back(static_cast<char>(c));
      if (response.empty()) return nullptr;
      json m = json::parse(response, nullptr, false);
      if (m.is_object() && m.value("id", json()) == id) return m;
    }
  }

 private:
  pid_t pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
};

struct Fixture {
  fs::path dir;
  std::unique_ptr<McpProcess> server;
  std::string trace_id;
  int next_id = 10;
  std::string error;

  Fixture() {
    dir = fs::temp_directory_path() / ("tw_mcp_bench_" + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string trace = (dir / "scroll.pftrace").string();
    tw::tracegen::TracegenOptions options;
    options.scenario = "scroll_binder_jank";
    options.duration_s = 10;
    if (!tw::tracegen::GenerateTrace(options, trace).ok()) {
      error = "tracegen failed";
      return;
    }
    server = std::make_unique<McpProcess>();
    if (!server->ok()) {
      error = "cannot start tracewise mcp";
      return;
    }
    server->Call(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                   {"clientInfo", {{"name", "bench"}, {"version", "1"}}}});
    json loaded = server->Call(2, "tools/call", {{"name", "load_trace"}, {"arguments", {{"path", trace}}}});
    if (loaded.is_null() || loaded["result"]["isError"].get<bool>()) {
      error = "load_trace failed: " + loaded.dump();
      return;
    }
    trace_id = loaded["result"]["structuredContent"]["trace_id"];
  }
  ~Fixture() {
    server.reset();
    fs::remove_all(dir);
  }
};

Fixture& Shared() {
  static Fixture* fixture = new Fixture();
  return *fixture;
}

void RoundTrip(benchmark::State& state, const std::string& sql) {
  Fixture& f = Shared();
  if (!f.error.empty()) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  const json params = {{"name", "query"}, {"arguments", {{"trace_id", f.trace_id}, {"sql", sql}}}};
  // One untimed call builds whatever the query needs (lazy indexes), as a model's first call would.
  f.server->Call(f.next_id++, "tools/call", params);
  std::vector<double> ms, engine_ms, overhead_ms;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    json r = f.server->Call(f.next_id++, "tools/call", params);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(elapsed);
    ms.push_back(elapsed * 1e3);
    if (r.is_null() || r["result"]["isError"].get<bool>()) {
      state.SkipWithError(("query failed: " + r.dump()).c_str());
      return;
    }
    // The engine's own time for the SQL, to tell it from the protocol's share.
    engine_ms.push_back(r["result"]["structuredContent"]["elapsed_ns"].get<double>() / 1e6);
    overhead_ms.push_back(ms.back() - engine_ms.back());
  }
  auto pct = [](std::vector<double>& v, double p) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
  };
  state.counters["p50_ms"] = pct(ms, 0.50);
  state.counters["p90_ms"] = pct(ms, 0.90);
  state.counters["p99_ms"] = pct(ms, 0.99);
  state.counters["engine_p50_ms"] = pct(engine_ms, 0.50);
  state.counters["overhead_p50_ms"] = pct(overhead_ms, 0.50);
}

void BM_QueryTrivial(benchmark::State& state) { RoundTrip(state, "SELECT 1 AS one"); }
void BM_QueryCount(benchmark::State& state) { RoundTrip(state, "SELECT COUNT(*) AS n FROM slice"); }
void BM_QueryTopSlices(benchmark::State& state) {
  RoundTrip(state,
            "SELECT name, COUNT(*) AS n, SUM(dur) AS total_dur FROM slice GROUP BY name "
            "ORDER BY total_dur DESC LIMIT 10");
}
void BM_QueryMainThreadStates(benchmark::State& state) {
  RoundTrip(state,
            "SELECT state, COUNT(*) AS n, SUM(dur) AS dur FROM thread_state JOIN thread USING (utid) "
            "WHERE thread.tid = 8123 GROUP BY state ORDER BY dur DESC");
}
void BM_Query500Rows(benchmark::State& state) {
  RoundTrip(state, "SELECT ts, dur, name, depth FROM slice ORDER BY ts LIMIT 500");
}

BENCHMARK(BM_QueryTrivial)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(300);
BENCHMARK(BM_QueryCount)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(300);
BENCHMARK(BM_QueryTopSlices)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(200);
BENCHMARK(BM_QueryMainThreadStates)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(200);
BENCHMARK(BM_Query500Rows)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(200);

}  // namespace

BENCHMARK_MAIN();
