#pragma once
// The traces the service benchmarks share, generated once into $TMPDIR/tw_membench_traces and
// reused by later runs: twelve tracegen scenarios (the first a ~20 MB busy scroll) and a
// synthetic 8-CPU scheduler trace.

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tools/synth/sched_trace_writer.h"
#include "tools/tracegen/tracegen.h"

namespace tw::testing {

// 13 traces, generated once: twelve tracegen scenarios (one a ~20 MB busy scroll) and a
// synthetic 8-CPU scheduler trace.
inline const std::vector<std::string>& BenchTraces() {
  static const std::vector<std::string> traces = [] {
    namespace fs = std::filesystem;
    const fs::path dir = std::filesystem::temp_directory_path() / "tw_membench_traces";
    std::filesystem::create_directories(dir);
    std::vector<std::string> out;
    struct Spec {
      const char* scenario;
      double seconds;
      int fps;
      uint64_t seed;
    };
    const Spec specs[] = {
        {"large", 2.8, 90, 1},          {"scroll_smooth", 2.0, 60, 2},
        {"scroll_binder_jank", 3.0, 90, 3}, {"scroll_renderthread_gpu", 2.0, 120, 4},
        {"scroll_cpu_contention", 3.0, 60, 5}, {"scroll_gc_pressure", 2.0, 90, 6},
        {"scroll_lock_contention", 2.0, 60, 7}, {"scroll_thermal", 4.0, 60, 8},
        {"startup_cold", 1.5, 60, 9},   {"startup_cold_slow_io", 2.0, 90, 10},
        {"startup_warm", 1.5, 120, 11}, {"anr_main_thread_blocked", 6.0, 60, 12},
    };
    for (const Spec& s : specs) {
      const fs::path path = dir / (std::string(s.scenario) + "_" + std::to_string(s.seed) + ".pftrace");
      if (!std::filesystem::exists(path)) {
        tw::tracegen::TracegenOptions o;
        o.scenario = s.scenario;
        o.duration_s = s.seconds;
        o.fps = s.fps;
        o.seed = s.seed;
        if (!tw::tracegen::GenerateTrace(o, path.string() + ".tmp").ok()) std::abort();
        std::filesystem::rename(path.string() + ".tmp", path);
      }
      out.push_back(path.string());
    }
    const fs::path sched = dir / "sched_8cpu.pftrace";
    if (!std::filesystem::exists(sched)) {
      tw::synth::SchedTraceOptions o;
      o.cpus = 8;
      o.duration_ns = 4'000'000'000;
      o.seed = 13;
      if (!tw::synth::WriteSyntheticSchedTrace(o, sched.string() + ".tmp").ok()) std::abort();
      std::filesystem::rename(sched.string() + ".tmp", sched);
    }
    out.push_back(sched.string());
    return out;
  }();
  return traces;
}

}  // namespace tw::testing
