// What authentication and TLS cost per HTTP call through the gateway (issue #16: < 1 ms p50 on
// loopback). Two whole stacks: one plain (HTTP, no auth, plaintext gRPC), one secured (HTTPS, an
// API key checked at the gateway and again at trace-query, mTLS between the processes). The same
// small request over a kept-alive connection: GET /api/traces/{id} (the gateway → trace-query
// round trip) and POST /api/traces/{id}/query with `SELECT 1`. p50 / p90 per call in
// microseconds; the overhead is the difference between the two stacks.
//
//   build/tests/security/tw_gateway_auth_benchmark [--benchmark_min_time=2]

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/gateway/gateway_test_env.h"
#include "tests/security/security_env.h"

namespace tw {
namespace {

struct Stack {
  std::unique_ptr<testing::GatewayEnv> env;
  std::string trace_id;
};

struct Fixture {
  std::unique_ptr<testing::SecurityEnv> security;
  Stack plain, secured;
};

Fixture* fixture = nullptr;

std::string Upload(httplib::Client& client, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  auto r = client.Post("/api/traces?name=bench.pftrace", bytes.str(), "application/octet-stream");
  if (!r || (r->status != 200 && r->status != 201)) return "";
  return nlohmann::json::parse(r->body, nullptr, false).value("trace_id", "");
}

bool Start(Stack& stack, const std::string& name, testing::GatewayEnvOptions options) {
  stack.env = std::make_unique<testing::GatewayEnv>(name, std::move(options));
  if (!stack.env->Start()) return false;
  const std::string trace = stack.env->Generate("scroll_smooth", 5, 1.0, 60);
  stack.trace_id = Upload(*stack.env->Client(), trace);
  return !stack.trace_id.empty();
}

Fixture& Env() {
  static Fixture* f = [] {
    auto* fx = new Fixture();
    fx->security = std::make_unique<testing::SecurityEnv>("tw-gw-auth-bench");
    testing::GatewayEnvOptions secured;
    secured.security_flags = fx->security->SecurityFlags();
    secured.https_ca = fx->security->pki().ca_cert;
    secured.authorization = fx->security->Bearer("alpha", "admin");
    if (!Start(fx->plain, "gw_bench_plain", {}) || !Start(fx->secured, "gw_bench_secured", secured)) {
      fx->plain.trace_id.clear();
    }
    fixture = fx;
    return fx;
  }();
  return *f;
}

enum Call { kTraceInfo, kQuery };

void BM_GatewayCall(benchmark::State& state) {
  Fixture& f = Env();
  const bool secure = state.range(0) == 1;
  const Call call = static_cast<Call>(state.range(1));
  Stack& stack = secure ? f.secured : f.plain;
  if (f.plain.trace_id.empty()) {
    state.SkipWithError("the stacks did not start");
    return;
  }
  auto client = stack.env->Client();
  client->set_keep_alive(true);
  client->set_tcp_nodelay(true);
  const std::string info_path = "/api/traces/" + stack.trace_id;
  const std::string query_path = info_path + "/query";
  const std::string query = R"({"sql": "SELECT 1"})";
  std::vector<double> micros;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto r = call == kTraceInfo ? client->Get(info_path) : client->Post(query_path, query, "application/json");
    if (!r || r->status != 200) {
      state.SkipWithError("the call failed");
      break;
    }
    micros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  if (micros.empty()) return;
  std::sort(micros.begin(), micros.end());
  state.counters["p50_us"] = micros[micros.size() / 2];
  state.counters["p90_us"] = micros[micros.size() * 9 / 10];
}
BENCHMARK(BM_GatewayCall)
    ->ArgsProduct({{0, 1}, {kTraceInfo, kQuery}})
    ->ArgNames({"secured", "call_info0_query1"})
    ->MinTime(1.0)
    ->UseRealTime();

}  // namespace
}  // namespace tw

// The stacks are stopped before exit (they share this process's stderr).
int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  delete tw::fixture;
  return 0;
}
