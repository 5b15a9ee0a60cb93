// Google Benchmark: the scrolling skill set end to end, in process vs through both services on
// loopback (issue target: under 1 s in process, under 1.5 s through the services). The trace is
// tracegen's `large` scenario for 4 s at 90 Hz (~1.2 M ftrace events: a busy scroll with frame
// timeline, binder, jank and heavy background load); "in process" loads it here and runs the
// skills; "services" starts tracewise-trace-query and tracewise-skill-engine as real processes,
// uploads the trace once, then invokes every skill through the skill-engine (which queries
// trace-query over gRPC).
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
#include "tools/tracegen/tracegen.h"
#include "tracewise/v1/skill_engine.grpc.pb.h"

namespace tw::skills {
namespace {

namespace pb = tracewise::v1;

using SkillCalls = std::vector<std::pair<std::string, std::map<std::string, std::string>>>;

struct Fixture {
  std::string path;
  int64_t events = 0;
  SkillLibrary library;
  SkillCalls set;  // the scrolling strategy's skills, with the parameters it would pass
};

Fixture& GetFixture() {
  static Fixture* f = [] {
    auto* f = new Fixture();
    f->path = (std::filesystem::temp_directory_path() / "tw_skill_services_bench.pftrace").string();
    tracegen::TracegenOptions o;
    o.scenario = "large";
    o.duration_s = 4;
    o.fps = 90;
    auto truth = tracegen::GenerateTrace(o, f->path);
    if (!truth.ok()) return f;
    f->events = truth->ftrace_events;
    std::vector<Diagnostic> diags;
    f->library = SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diags);
    // The app's upid and main-thread utid, as the strategy's probes would find them.
    auto trace = LoadTraceFile(f->path);
    std::string upid = "1", utid = "1";
    if (trace.ok()) {
      auto r = (*trace)->db().Execute(
          "SELECT upid, utid FROM thread WHERE tid = " + std::to_string(truth->app_main_tid));
      if (r.ok() && !r->rows.empty()) {
        upid = std::to_string(r->rows[0][0].int_value);
        utid = std::to_string(r->rows[0][1].int_value);
      }
    }
    f->set = {{"trace_overview", {}},         {"focus_app", {}},
              {"refresh_rate", {}},           {"rendering_architecture", {{"upid", upid}}},
              {"frame_overview", {{"upid", upid}}}, {"janky_frames", {{"upid", upid}}},
              {"jank_root_causes", {{"upid", upid}}}, {"cpu_top_threads", {}},
              {"runnable_latency", {}},       {"cpu_frequency", {}},
              {"thread_state_breakdown", {{"utid", utid}}},
              {"binder_slow_calls", {{"upid", upid}}}};
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
    for (const auto& [skill, params] : f.set) {
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
    for (const auto& [skill, params] : f.set) {
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
    for (const auto& [skill, params] : f.set) {
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
