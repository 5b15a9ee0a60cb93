#include "tools/tracegen/tracegen.h"

#include <cstdio>
#include <functional>
#include <memory>

#include "absl/strings/str_cat.h"
#include "tools/synth/trace_file.h"
#include "tools/tracegen/android_world.h"
#include "tools/tracegen/frame_pipeline.h"
#include "tools/tracegen/scenario_kit.h"

namespace tw::tracegen {
namespace {

struct Entry {
  ScenarioInfo info;
  Builder build;
  bool app_running;
  uint32_t noise_processes, noise_threads;
  double noise_load;
  double noise_mean_run_ns = 350'000;
};

const std::vector<Entry>& Registry() {
  static const std::vector<Entry> kEntries = {
      {{"scroll_smooth", "a list scrolled at the display rate with no jank (baseline)", 2.0}, ScrollSmooth, true, 8, 3, 0.12},
      {{"scroll_binder_jank", "the main thread blocks in slow sync binder calls to system_server on some frames", 2.0}, ScrollBinderJank, true, 8, 3, 0.12},
      {{"scroll_renderthread_gpu", "RenderThread waits for a buffer (GPU fence) in dequeueBuffer on some frames", 2.0}, ScrollRenderThreadGpu, true, 8, 3, 0.12},
      {{"scroll_cpu_contention", "background threads flood the big cores; the main thread waits Runnable", 2.0}, ScrollCpuContention, true, 8, 3, 0.12},
      {{"scroll_gc_pressure", "ART GCs on HeapTaskDaemon block allocating frames (WaitForGcToComplete)", 2.0}, ScrollGcPressure, true, 8, 3, 0.12},
      {{"scroll_lock_contention", "the main thread waits on a monitor lock held by a worker thread", 2.0}, ScrollLockContention, true, 8, 3, 0.12},
      {{"scroll_thermal", "the big cores are frequency-capped mid-trace and frames slow down", 2.0}, ScrollThermal, true, 8, 3, 0.12},
      {{"startup_cold", "cold launch: process start, bindApplication, activityStart, first frame", 1.5}, StartupCold, false, 8, 3, 0.12},
      {{"startup_cold_slow_io", "cold launch with main-thread disk I/O (D state) and class loading", 2.0}, StartupColdSlowIo, false, 8, 3, 0.12},
      {{"startup_warm", "warm launch: the process exists, activityStart, activityResume, first frame", 1.5}, StartupWarm, true, 8, 3, 0.12},
      {{"anr_main_thread_blocked", "input dispatch timeout: main thread waits on a lock held by a worker in I/O", 6.0}, AnrMainThreadBlocked, true, 8, 3, 0.12},
      {{"scroll_binder_gc", "two causes: slow binder calls on some frames, GC waits on others", 3.0}, ScrollBinderGc, true, 8, 3, 0.12},
      {{"scroll_decoys", "a smooth scroll beside decoys: background GC, slow binder off the main thread, a busy little core", 3.0}, ScrollDecoys, true, 8, 3, 0.12},
      {{"scroll_subtle", "a long smooth scroll with 5 janky frames (main-thread file reads)", 10.0}, ScrollSubtle, true, 8, 3, 0.12},
      {{"scroll_bad_interval", "a long scroll with one bad interval (another app floods the big cores)", 60.0}, ScrollBadInterval, true, 8, 3, 0.12},
      {{"scroll_thermal_contention", "CPU contention early, then the big cores thermally capped", 4.0}, ScrollThermalContention, true, 8, 3, 0.12},
      {{"startup_cold_two_causes", "cold launch blocked by a slow binder call and a lock held by a worker", 1.5}, StartupColdTwoCauses, false, 8, 3, 0.12},
      {{"anr_binder", "input dispatch timeout: the tap's handler waits seconds on a binder call to system_server", 6.0}, AnrBinder, true, 8, 3, 0.12},
      {{"input_slow", "taps whose handler runs ~220 ms on the main thread", 4.0}, InputSlow, true, 8, 3, 0.12},
      {{"input_fast", "taps handled in a few ms (clean twin of input_slow)", 4.0}, InputFast, true, 8, 3, 0.12},
      {{"memory_pressure", "kswapd busy, direct reclaim on the main thread, lmkd kills cached apps, RSS grows", 3.0}, MemoryPressure, true, 8, 3, 0.12},
      {{"memory_steady", "a scroll with memory polled and steady (clean twin of memory_pressure)", 3.0}, MemorySteady, true, 8, 3, 0.12},
      {{"idle_wakeups", "an idle screen while a sync service's timer wakes the CPUs every 2 ms and floods system_server with oneway binder calls", 3.0}, IdleWakeups, true, 8, 3, 0.03},
      {{"idle_quiet", "an idle screen, nothing keeping the CPUs awake (clean twin of idle_wakeups)", 3.0}, IdleQuiet, true, 8, 3, 0.03},
      {{"large", "a long busy scroll with heavy background load, for benchmarks (millions of events)", 20.0}, Large, true, 48, 7, 0.012, 50'000},
  };
  return kEntries;
}

}  // namespace

const std::vector<ScenarioInfo>& Scenarios() {
  static const std::vector<ScenarioInfo> kInfos = [] {
    std::vector<ScenarioInfo> v;
    for (const Entry& e : Registry()) v.push_back(e.info);
    return v;
  }();
  return kInfos;
}

absl::StatusOr<GroundTruth> GenerateTrace(const TracegenOptions& options, const std::string& path) {
  const Entry* entry = nullptr;
  for (const Entry& e : Registry()) {
    if (options.scenario == e.info.name) entry = &e;
  }
  if (!entry) return absl::InvalidArgumentError(absl::StrCat("unknown scenario '", options.scenario, "'"));
  if (options.fps != 60 && options.fps != 90 && options.fps != 120) {
    return absl::InvalidArgumentError("fps must be 60, 90 or 120");
  }
  if (options.little_cpus < 1 || options.big_cpus < 1 || options.little_cpus + options.big_cpus > 16) {
    return absl::InvalidArgumentError("cores: 1..15 little and 1..15 big, at most 16 in all");
  }
  if (!(options.severity > 0) || options.severity > 10) {
    return absl::InvalidArgumentError("severity must be in (0, 10]");
  }
  Params p{options, 0};
  const double seconds = options.duration_s > 0 ? options.duration_s : entry->info.default_duration_s;
  if (seconds < 0.5 || seconds > 3600) return absl::InvalidArgumentError("duration must be 0.5..3600 s");
  p.o.duration_s = seconds;
  p.duration_ns = static_cast<int64_t>(seconds * 1e9);

  WorldOptions wo;
  wo.refresh_hz = options.fps;
  wo.little_cpus = options.little_cpus;
  wo.big_cpus = options.big_cpus;
  wo.seed = options.seed;
  wo.compact_sched = options.compact_sched;
  wo.start_ns = 73'000'000'000;  // uptime ~73 s
  wo.duration_ns = p.duration_ns;
  wo.noise_processes = entry->noise_processes;
  wo.noise_threads = entry->noise_threads;
  wo.noise_load = entry->noise_load;
  wo.noise_mean_run_ns = entry->noise_mean_run_ns;
  wo.app_running = entry->app_running;
  wo.hostile_text = options.hostile_text;
  wo.extra_process_names = options.extra_process_names;

  synth::TraceFile file;
  if (absl::Status st = file.Open(path); !st.ok()) return st;
  auto world = std::make_unique<AndroidWorld>(wo, &file);
  Scenario scenario;
  entry->build(*world, p, scenario);
  for (size_t i = 0; i < options.hostile_text.size(); ++i) {
    for (int64_t t = wo.start_ns + 500'000'000; t < wo.start_ns + p.duration_ns; t += 1'000'000'000) {
      world->Log(t + static_cast<int64_t>(i) * 1000, AndroidWorld::kAppPid, AndroidWorld::kAppPid,
                 kLogWarn, AndroidWorld::kPackage, options.hostile_text[i]);
    }
  }
  world->Begin();
  world->Finish();
  if (scenario.frames) scenario.frames->Finish(&file);
  if (scenario.after) scenario.after();
  GroundTruth truth = world->truth();
  truth.scenario = options.scenario;
  truth.duration_s = seconds;
  truth.severity = options.severity;
  truth.bytes = file.bytes();
  if (absl::Status st = file.Close(); !st.ok()) return st;

  const std::string json_path = path + ".truth.json";
  FILE* f = std::fopen(json_path.c_str(), "wb");
  if (!f) return absl::PermissionDeniedError(absl::StrCat("cannot create ", json_path));
  const std::string json = truth.ToJson();
  const bool ok = std::fwrite(json.data(), 1, json.size(), f) == json.size();
  if (std::fclose(f) != 0 || !ok) return absl::DataLossError(absl::StrCat("cannot write ", json_path));
  return truth;
}

}  // namespace tw::tracegen
