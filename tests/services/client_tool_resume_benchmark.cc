// From SubmitToolResult to the model's next request (issue target: p50 under 20 ms), with the
// continuation persisted: trace-query, skill-engine, verifier and orchestrator as processes
// (the orchestrator's SQLite session store in WAL mode), a scripted OpenAI server on loopback.
// Each iteration is one turn: the model calls select_slice, the turn pauses (its continuation
// saved, client_tool_request streamed), the benchmark answers, and the time is taken from just
// before SubmitToolResult to the moment the scripted server has the resumed turn's request —
// the answer stored, the continuation claimed and parsed, the agent state rebuilt, the backends
// wired, the events appended and the prompt assembled and sent.
//
//   ./build/tests/services/tw_client_tool_resume_benchmark
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "tests/llm/scripted_llm_server.h"
#include "tests/llm/wire_scripts.h"
#include "tests/services/orchestrator_test_env.h"

namespace tw::testing {
namespace {

using json = nlohmann::json;

int64_t SteadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
}

void BM_SubmitToolResultToNextProviderRequest(benchmark::State& state) {
  llm::testing::ScriptedLlmServer server;
  OrchestratorEnv env("client_tool_resume_bench",
                      {"TRACEWISE_LLM_PROVIDER=openai", "TRACEWISE_LLM_MODEL=gpt-4o",
                       "TRACEWISE_LLM_BASE_URL=" + server.BaseUrl() + "/v1", "TRACEWISE_LLM_API_KEY=sk-bench",
                       "TRACEWISE_LLM_RETRY_BACKOFF_MS=1"});
  env.StartBackends();
  env.StartOrchestrator();
  const std::string session = env.CreateSession();
  std::vector<double> latencies_ms;
  for (auto _ : state) {
    server.Enqueue(llm::testing::OpenAiToolCalls({{"call_1", "select_slice", R"({"slice_id": 5})"}}));
    server.Enqueue(llm::testing::OpenAiText("Slice 5 is selected."));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    pb::AskRequest ask;
    ask.set_session_id(session);
    ask.set_question("show me the slice that matters");
    ask.mutable_options()->set_mode("quick");
    ask.mutable_options()->add_client_tools("select_slice");
    auto reader = env.stub().Ask(&ctx, ask);
    pb::AnalysisEvent event;
    std::string request_id;
    while (reader->Read(&event)) {
      if (event.kind() == "client_tool_request") {
        request_id = json::parse(event.payload_json())["request_id"];
        break;
      }
    }
    if (request_id.empty()) {
      state.SkipWithError("no client_tool_request");
      break;
    }
    const int before = server.RequestCount();
    grpc::ClientContext submit_ctx;
    pb::SubmitToolResultRequest submit;
    submit.set_session_id(session);
    submit.set_request_id(request_id);
    submit.set_result_json(R"({"selected":true,"name":"Choreographer#doFrame"})");
    pb::SubmitToolResultResponse response;
    const int64_t start = SteadyNs();
    if (!env.stub().SubmitToolResult(&submit_ctx, submit, &response).ok() || !response.resumed()) {
      state.SkipWithError("SubmitToolResult did not resume the turn");
      break;
    }
    while (server.RequestCount() == before) std::this_thread::sleep_for(std::chrono::microseconds(100));
    const int64_t received = server.Requests().at(static_cast<size_t>(before)).received_steady_ns;
    const double ms = static_cast<double>(received - start) / 1e6;
    latencies_ms.push_back(ms);
    state.SetIterationTime(ms / 1e3);
    while (reader->Read(&event)) {
    }
    (void)reader->Finish();
  }
  state.counters["p50_ms"] = Percentile(latencies_ms, 0.5);
  state.counters["p90_ms"] = Percentile(latencies_ms, 0.9);
  state.counters["max_ms"] = Percentile(latencies_ms, 1.0);
}
BENCHMARK(BM_SubmitToolResultToNextProviderRequest)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(40);

}  // namespace
}  // namespace tw::testing

BENCHMARK_MAIN();
