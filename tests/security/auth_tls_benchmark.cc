// What authentication and mTLS cost per call (issue #16: < 1 ms p50 on loopback). Two
// trace-query processes, one plain (no auth, plaintext) and one with --auth-config and mTLS;
// the same small query over a kept-alive channel, with an API key, an HS256 JWT or an RS256
// JWT. Reports p50 / p90 per call in microseconds; the overhead is the difference to `plain`.
//
//   build/tests/security/tw_auth_tls_benchmark [--benchmark_min_time=2]

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <fstream>

#include "tests/security/security_env.h"
#include "tools/synth/sched_trace_writer.h"
#include "tracewise/v1/trace_query.grpc.pb.h"

namespace tw {
namespace {

namespace pb = tracewise::v1;

struct Fixture {
  std::unique_ptr<testing::SecurityEnv> env;
  std::unique_ptr<testing::ServiceProcess> plain;
  testing::ServiceProcess* secure = nullptr;
  std::string plain_id, secure_id;
};

std::string Upload(pb::TraceQuery::Stub& stub, const std::string& bearer, const std::string& path) {
  grpc::ClientContext context;
  if (!bearer.empty()) context.AddMetadata("authorization", bearer);
  pb::UploadTraceResponse response;
  auto writer = stub.UploadTrace(&context, &response);
  pb::UploadTraceRequest request;
  request.mutable_metadata()->set_name("bench.pftrace");
  writer->Write(request);
  std::ifstream in(path, std::ios::binary);
  request.Clear();
  request.set_chunk(std::string((std::istreambuf_iterator<char>(in)), {}));
  writer->Write(request);
  writer->WritesDone();
  return writer->Finish().ok() ? response.trace_id() : "";
}

Fixture* fixture = nullptr;

Fixture& Env() {
  static Fixture* f = [] {
    auto* fx = new Fixture();
    fx->env = std::make_unique<testing::SecurityEnv>("tw-auth-bench");
    const std::string trace = fx->env->dir() + "/bench.pftrace";
    synth::SchedTraceOptions options;
    options.cpus = 2;
    options.duration_ns = 100'000'000;
    options.seed = 3;
    (void)synth::WriteSyntheticSchedTrace(options, trace);
    fx->plain = std::make_unique<testing::ServiceProcess>(
        TW_TRACE_QUERY_BINARY, std::vector<std::string>{"--data-dir", fx->env->dir() + "/plain"});
    fx->secure = fx->env->Start(TW_TRACE_QUERY_BINARY, {"--data-dir", fx->env->dir() + "/secure"});
    auto plain_stub = pb::TraceQuery::NewStub(testing::SecurityEnv::Plaintext(fx->plain->address()));
    fx->plain_id = Upload(*plain_stub, "", trace);
    auto secure_stub = pb::TraceQuery::NewStub(fx->env->Channel(fx->secure->address()));
    fx->secure_id = Upload(*secure_stub, fx->env->Bearer("alpha", "uploader"), trace);
    fixture = fx;
    return fx;
  }();
  return *f;
}

enum Mode { kPlain, kApiKey, kJwtHs256, kJwtRs256 };

void BM_QueryCall(benchmark::State& state) {
  Fixture& f = Env();
  const Mode mode = static_cast<Mode>(state.range(0));
  if (f.plain_id.empty() || f.secure_id.empty()) {
    state.SkipWithError("the services did not start");
    return;
  }
  std::shared_ptr<grpc::Channel> channel =
      mode == kPlain ? testing::SecurityEnv::Plaintext(f.plain->address())
                     : f.env->Channel(f.secure->address());
  auto stub = pb::TraceQuery::NewStub(channel);
  std::string bearer;
  if (mode == kApiKey) bearer = f.env->Bearer("alpha", "viewer");
  if (mode == kJwtHs256) bearer = f.env->Jwt("alpha", "viewer", 3600);
  if (mode == kJwtRs256) bearer = f.env->Jwt("alpha", "viewer", 3600, true);
  pb::QueryRequest request;
  request.set_trace_id(mode == kPlain ? f.plain_id : f.secure_id);
  request.set_sql("SELECT 1");
  std::vector<double> micros;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    grpc::ClientContext context;
    if (!bearer.empty()) context.AddMetadata("authorization", bearer);
    auto reader = stub->Query(&context, request);
    pb::QueryResponse response;
    while (reader->Read(&response)) {
    }
    if (!reader->Finish().ok()) {
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
BENCHMARK(BM_QueryCall)->Arg(kPlain)->Arg(kApiKey)->Arg(kJwtHs256)->Arg(kJwtRs256)
    ->ArgName("mode_plain0_key1_hs2_rs3")->MinTime(1.0)->UseRealTime();

}  // namespace
}  // namespace tw

// The services are stopped before exit (they share this process's stderr).
int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (tw::fixture != nullptr) {
    tw::fixture->plain.reset();
    delete tw::fixture;
  }
  return 0;
}
