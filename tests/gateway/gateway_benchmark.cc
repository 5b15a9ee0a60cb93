// Benchmarks of tracewise-gateway (a real gateway process, real HTTP and gRPC on loopback):
//
// - BM_ProxiedEvent: per-event latency of an orchestrator event reaching an SSE client through
//   the gateway, against the same event read straight from gRPC; the difference of the medians
//   is the gateway's overhead per proxied event (target < 2 ms p50). Events are spaced 1 ms
//   apart so latency, not queueing, is measured.
// - BM_SseThroughput: events per second a client receives through the gateway when the
//   orchestrator streams as fast as it can (target >= 5,000 events/s).
// - BM_Upload100MB: a 100 MB synthetic scheduling trace uploaded through the gateway to a real
//   trace-query; reports the gateway's peak RSS (VmHWM, target < 64 MB) and MB/s.
// - BM_ToolResult: a client tool's answer (a 20 KB PNG, as capture_view sends) posted to
//   /api/sessions/{id}/tool-results against the same SubmitToolResult straight over gRPC; the
//   difference of the medians is the gateway's overhead per answer (JSON, base64, HTTP).
//
// The orchestrator of the first two is a stub gRPC server in this process that streams
// generated events with their send time in `unix_ns`.

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "absl/strings/escaping.h"
#include "tests/gateway/gateway_test_env.h"
#include "tools/synth/sched_trace_writer.h"
#include "tracewise/v1/orchestrator.grpc.pb.h"

namespace tw::testing {
namespace {

namespace pb = tracewise::v1;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Resume streams `events` events `spacing_us` apart (0: as fast as possible), each stamped with
// its send time; the session id picks the shape: "paced-N" or "burst-N".
class StubOrchestrator final : public pb::Orchestrator::Service {
 public:
  grpc::Status Resume(grpc::ServerContext* ctx, const pb::ResumeRequest* request,
                      grpc::ServerWriter<pb::AnalysisEvent>* writer) override {
    const std::string& id = request->session_id();
    const bool paced = id.rfind("paced-", 0) == 0;
    const int n = std::stoi(id.substr(id.find('-') + 1));
    const std::string payload =
        R"({"call":1,"text":"The main thread of com.example.feed blocks in binder transactions to system_server during 27 of 412 frames."})";
    for (int i = 1; i <= n && !ctx->IsCancelled(); ++i) {
      pb::AnalysisEvent e;
      e.set_session_id(id);
      e.set_seq(request->from_seq() + i);
      e.set_turn(1);
      e.set_kind(i == n ? "done" : "text_delta");
      e.set_payload_json(payload);
      if (paced) std::this_thread::sleep_for(std::chrono::microseconds(1000));
      e.set_unix_ns(NowNs());
      if (!writer->Write(e)) break;
    }
    return grpc::Status::OK;
  }
  grpc::Status SubmitToolResult(grpc::ServerContext*, const pb::SubmitToolResultRequest* request,
                                pb::SubmitToolResultResponse* response) override {
    if (request->request_id().empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "no id"};
    response->set_turn(1);
    response->set_resumed(true);
    return grpc::Status::OK;
  }
};

struct StubStack {
  StubOrchestrator service;
  std::unique_ptr<grpc::Server> server;
  std::string address;
  std::unique_ptr<ServiceProcess> gateway;
  int gateway_port = 0;

  StubStack() {
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&service);
    server = builder.BuildAndStart();
    address = "127.0.0.1:" + std::to_string(port);
    // trace-query and skill-engine are not called by these routes (channels connect lazily).
    gateway = std::make_unique<ServiceProcess>(
        TW_GATEWAY_BINARY,
        std::vector<std::string>{"--trace-query", "127.0.0.1:1", "--skill-engine", "127.0.0.1:1",
                                 "--orchestrator", address});
    gateway_port = std::stoi(gateway->address().substr(gateway->address().rfind(':') + 1));
  }
  ~StubStack() {
    gateway.reset();
    server->Shutdown();
  }
};

// Started by the first benchmark that needs it, stopped by main() (not left to static
// destruction: the gateway is a child process that must not outlive the benchmark).
}  // namespace
std::unique_ptr<StubStack> g_stack;
namespace {
StubStack& Stack() {
  if (!g_stack) g_stack = std::make_unique<StubStack>();
  return *g_stack;
}

// Reads an SSE stream, calling on_event(unix_ns) per event.
template <typename F>
int64_t ReadSse(int port, const std::string& session, F on_event) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(std::chrono::seconds(60));
  std::string pending;
  int64_t events = 0;
  client.Get(("/api/sessions/" + session + "/events").c_str(), httplib::Headers{},
             [&](const char* data, size_t n) {
               pending.append(data, n);
               size_t end;
               while ((end = pending.find("\n\n")) != std::string::npos) {
                 const size_t at = pending.find("\"unix_ns\":");
                 if (at != std::string::npos && at < end) {
                   on_event(std::stoll(pending.substr(at + 10)));
                   ++events;
                 }
                 pending.erase(0, end + 2);
               }
               return true;
             });
  return events;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
}

void BM_ProxiedEvent(benchmark::State& state) {
  StubStack& s = Stack();
  std::vector<double> through, direct;
  for (auto _ : state) {
    ReadSse(s.gateway_port, "paced-500",
            [&](int64_t sent) { through.push_back((NowNs() - sent) / 1e6); });
    auto stub = pb::Orchestrator::NewStub(
        grpc::CreateChannel(s.address, grpc::InsecureChannelCredentials()));
    grpc::ClientContext ctx;
    pb::ResumeRequest request;
    request.set_session_id("paced-500");
    auto reader = stub->Resume(&ctx, request);
    pb::AnalysisEvent e;
    while (reader->Read(&e)) direct.push_back((NowNs() - e.unix_ns()) / 1e6);
    reader->Finish();
  }
  state.counters["through_gateway_p50_ms"] = Percentile(through, 0.5);
  state.counters["through_gateway_p99_ms"] = Percentile(through, 0.99);
  state.counters["direct_grpc_p50_ms"] = Percentile(direct, 0.5);
  state.counters["gateway_overhead_p50_ms"] = Percentile(through, 0.5) - Percentile(direct, 0.5);
}
BENCHMARK(BM_ProxiedEvent)->Iterations(3)->Unit(benchmark::kMillisecond);

void BM_SseThroughput(benchmark::State& state) {
  StubStack& s = Stack();
  int64_t events = 0;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    events += ReadSse(s.gateway_port, "burst-50000", [](int64_t) {});
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  state.counters["events_per_s"] = static_cast<double>(events) / seconds;
}
BENCHMARK(BM_SseThroughput)->Iterations(3)->Unit(benchmark::kMillisecond);

void BM_ToolResult(benchmark::State& state) {
  StubStack& s = Stack();
  std::string png(20'000, '\0');
  for (size_t i = 0; i < png.size(); ++i) png[i] = static_cast<char>(i * 131 % 251);
  const std::string body = nlohmann::json{
      {"request_id", "ct-1"},
      {"image_base64", absl::Base64Escape(png)},
      {"mime_type",
       "image/png"}}.dump();
  httplib::Client client("127.0.0.1", s.gateway_port);
  auto stub =
      pb::Orchestrator::NewStub(grpc::CreateChannel(s.address, grpc::InsecureChannelCredentials()));
  std::vector<double> through, direct;
  for (auto _ : state) {
    for (int i = 0; i < 200; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      auto r = client.Post("/api/sessions/s-1/tool-results", body, "application/json");
      through.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (!r || r->status != 200) {
        state.SkipWithError(r ? r->body.c_str() : "no response");
        return;
      }
      pb::SubmitToolResultRequest request;
      request.set_session_id("s-1");
      request.set_request_id("ct-1");
      request.mutable_image()->set_data(png);
      request.mutable_image()->set_mime_type("image/png");
      pb::SubmitToolResultResponse response;
      grpc::ClientContext ctx;
      t0 = std::chrono::steady_clock::now();
      stub->SubmitToolResult(&ctx, request, &response);
      direct.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  state.counters["through_gateway_p50_ms"] = Percentile(through, 0.5);
  state.counters["direct_grpc_p50_ms"] = Percentile(direct, 0.5);
  state.counters["gateway_overhead_p50_ms"] = Percentile(through, 0.5) - Percentile(direct, 0.5);
}
BENCHMARK(BM_ToolResult)->Iterations(3)->Unit(benchmark::kMillisecond);

int64_t PeakRssBytes(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return -1;
}

void BM_Upload100MB(benchmark::State& state) {
  GatewayEnv env("gateway_upload_bench");
  if (!env.Start()) {
    state.SkipWithError(env.error().c_str());
    return;
  }
  synth::SchedTraceOptions o;
  o.cpus = 8;
  // Long enough for ~100 MB of plain sched_switch events (3.7 MB per second of trace).
  o.duration_ns = 28'000'000'000;
  const std::string path = env.dir() + "/big.pftrace";
  if (!synth::WriteSyntheticSchedTrace(o, path).ok()) {
    state.SkipWithError("cannot write the synthetic trace");
    return;
  }
  const int64_t size = static_cast<int64_t>(std::filesystem::file_size(path));
  double seconds = 0;
  for (auto _ : state) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> buffer(1 << 20);
    httplib::Client client("127.0.0.1", env.gateway_port());
    client.set_read_timeout(std::chrono::seconds(600));
    client.set_write_timeout(std::chrono::seconds(600));
    const auto start = std::chrono::steady_clock::now();
    auto r = client.Post(
        "/api/traces?name=big.pftrace", static_cast<size_t>(size),
        [&](size_t, size_t length, httplib::DataSink& sink) {
          in.read(buffer.data(), static_cast<std::streamsize>(std::min(length, buffer.size())));
          sink.write(buffer.data(), static_cast<size_t>(in.gcount()));
          return true;
        },
        "application/octet-stream");
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!r || (r->status != 201 && r->status != 200)) {
      state.SkipWithError(r ? r->body.c_str() : "no response");
      return;
    }
  }
  state.counters["trace_mb"] = static_cast<double>(size) / (1 << 20);
  state.counters["upload_mb_per_s"] =
      static_cast<double>(size) / (1 << 20) * state.iterations() / seconds;
  state.counters["gateway_peak_rss_mb"] =
      static_cast<double>(PeakRssBytes(env.gateway().pid())) / (1 << 20);
}
BENCHMARK(BM_Upload100MB)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tw::testing

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  tw::testing::g_stack.reset();
  return 0;
}
