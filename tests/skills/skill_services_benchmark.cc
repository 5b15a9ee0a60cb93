// Google Benchmark: a skill set end to end, in process vs through both services on loopback.
// The trace is a synthetic scheduling trace of ~1 M events (tools/synth: 8 CPUs, 12 s);
// "in process" loads it here and runs the skills; "services" starts tracewise-trace-query and
// tracewise-skill-engine as real processes, uploads the trace once, then invokes every skill
// through the skill-engine (which queries trace-query over gRPC). The set is the scrolling
// strategy's skills; on this trace the frame skills end as "not supported" (no frame timeline),
// the CPU and thread-state skills do the work.
//
//   build-<dir>/tests/skills/tw_skill_services_benchmark

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "libs/rpc/grpc_query_backend.h"
#include "libs/skills/skill_executor.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/trace_loader.h"
#include "tests/services/service_process.h"
#include "tools/synth/sched_trace_writer.h"
#include "tracewise/v1/skill_engine.grpc.pb.h"

namespace tw::skills {
namespace {

namespace pb = tracewise::v1;

const std::vector<std::pair<std::string, std::map<std::string, std::string>>>& SkillSet() {
  static const auto* set = new std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
      {"trace_overview", {}},      {"focus_app", {}},
      {"refresh_rate", {}},        {"rendering_architecture", {}},
      {"frame_overview", {}},      {"janky_frames", {}},
      {"jank_root_causes", {}},    {"cpu_top_threads", {}},
      {"runnable_latency", {}},    {"cpu_frequency", {}},
      {"thread_state_breakdown", {{"utid", "5"}}},
      {"binder_slow_calls", {}},
  };
  return *set;
}

struct Fixture {
  std::string path;
  int64_t events = 0;
  SkillLibrary library;
  std::unique_ptr<testing::ServiceProcess> trace_query, skill_engine;
  std::string trace_id;
  std::unique_ptr<pb::SkillEngine::Stub> stub;
};

Fixture& GetFixture() {
  static Fixture* f = [] {
    auto* f = new Fixture();
    f->path = (std::filesystem::temp_directory_path() / "tw_skill_services_bench.pftrace").string();
    synth::SchedTraceOptions o;
    o.cpus = 8;
    o.duration_ns = 12'000'000'000;  // ~1 M events
    synth::SchedTraceSummary summary;
    if (!synth::WriteSyntheticSchedTrace(o, f->path, &summary).ok()) return f;
    f->events = summary.ftrace_events();
    std::vector<Diagnostic> diags;
    f->library = SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diags);
    return f;
  }();
  return *f;
}

void BM_SkillSetInProcess(benchmark::State& state) {
  Fixture& f = GetFixture();
  for (auto _ : state) {
    // End to end: load the trace, then run the set.
    auto trace = LoadTraceFile(f.path);
    if (!trace.ok()) {
      state.SkipWithError("cannot load the trace");
      return;
    }
    TraceDatabaseRunner runner(&(*trace)->db());
    SkillExecutor executor(f.library, runner);
    for (const auto& [skill, params] : SkillSet()) {
      SkillRunResult r = executor.Run(*f.library.Find(skill), params);
      if (r.outcome == SkillOutcome::kError) state.SkipWithError((skill + ": " + r.message).c_str());
    }
  }
  state.counters["trace_events"] = static_cast<double>(f.events);
}
BENCHMARK(BM_SkillSetInProcess)->Unit(benchmark::kMillisecond)->Iterations(3);

// Skills only (the trace already loaded), in process: the part the services add overhead to.
void BM_SkillSetInProcessLoaded(benchmark::State& state) {
  Fixture& f = GetFixture();
  auto trace = LoadTraceFile(f.path);
  if (!trace.ok()) {
    state.SkipWithError("cannot load the trace");
    return;
  }
  TraceDatabaseRunner runner(&(*trace)->db());
  SkillExecutor executor(f.library, runner);
  for (auto _ : state) {
    for (const auto& [skill, params] : SkillSet()) {
      SkillRunResult r = executor.Run(*f.library.Find(skill), params);
      if (std::getenv("TW_BENCH_VERBOSE")) {
        std::fprintf(stderr, "%-24s %8.1f ms %s\n", skill.c_str(), r.elapsed_ns / 1e6,
                     SkillOutcomeName(r.outcome));
      }
    }
  }
}
BENCHMARK(BM_SkillSetInProcessLoaded)->Unit(benchmark::kMillisecond)->Iterations(3);

// Through both services; the trace is uploaded and loaded once (first invocation loads it in
// trace-query, as a client's first question would), then every iteration runs the set.
void BM_SkillSetThroughServices(benchmark::State& state) {
  Fixture& f = GetFixture();
  const std::string data = (std::filesystem::temp_directory_path() / "tw_skill_services_bench_store").string();
  std::filesystem::remove_all(data);
  testing::ServiceProcess tq(TW_TRACE_QUERY_BINARY, {"--data-dir", data});
  if (!tq.ok()) {
    state.SkipWithError("trace-query did not start");
    return;
  }
  testing::ServiceProcess se(TW_SKILL_ENGINE_BINARY,
                             {"--trace-query", tq.address(), "--skills", TW_SOURCE_DIR "/skills"});
  if (!se.ok()) {
    state.SkipWithError("skill-engine did not start");
    return;
  }
  rpc::GrpcQueryBackend uploader(tq.address());
  auto id = uploader.UploadFile(f.path);
  if (!id.ok()) {
    state.SkipWithError("upload failed");
    return;
  }
  auto stub = pb::SkillEngine::NewStub(grpc::CreateChannel(se.address(), grpc::InsecureChannelCredentials()));
  auto run_set = [&]() -> bool {
    for (const auto& [skill, params] : SkillSet()) {
      pb::InvokeSkillRequest req;
      req.set_trace_id(*id);
      req.set_skill(skill);
      for (const auto& [k, v] : params) (*req.mutable_params())[k] = v;
      grpc::ClientContext ctx;
      auto reader = stub->InvokeSkill(&ctx, req);
      pb::SkillEvent e;
      while (reader->Read(&e)) {
      }
      if (!reader->Finish().ok()) return false;
    }
    return true;
  };
  const auto t0 = std::chrono::steady_clock::now();
  if (!run_set()) {  // the first set includes loading the trace in trace-query
    state.SkipWithError("a skill failed through the services");
    return;
  }
  state.counters["first_set_incl_load_ms"] =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  for (auto _ : state) run_set();
  state.counters["trace_events"] = static_cast<double>(f.events);
}
BENCHMARK(BM_SkillSetThroughServices)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

}  // namespace
}  // namespace tw::skills

BENCHMARK_MAIN();
