#pragma once
// The Android system every scenario runs on: system_server with its binder threads,
// surfaceflinger, the app under test (main thread, RenderThread, HeapTaskDaemon, workers,
// binder threads), kernel threads and background processes making noise; a cpufreq governor;
// and the non-ftrace packets a real recording carries (trace_config, system_info, cpu_info,
// process_tree, android_log).

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tools/tracegen/ground_truth.h"
#include "tools/tracegen/simulator.h"

namespace tw::tracegen {

struct WorldOptions {
  int refresh_hz = 60;
  uint32_t little_cpus = 4, big_cpus = 4;  // the device model
  uint64_t seed = 1;
  bool compact_sched = true;
  int64_t start_ns = 0;
  int64_t duration_ns = 0;
  uint32_t noise_processes = 8;   // background processes besides the fixed ones
  uint32_t noise_threads = 3;     // threads per background process
  double noise_load = 0.15;       // fraction of each noise thread's time spent running
  double noise_mean_run_ns = 350'000;
  bool app_running = true;        // false: the app is forked during the trace (cold start)
  std::vector<std::string> hostile_text;  // TracegenOptions::hostile_text
  // Background processes with exactly these names (hostile-input tests: markup or prompt
  // injection in a process name), each with one lightly loaded thread of the same name.
  std::vector<std::string> extra_process_names;
};

struct LogLine {
  int64_t ts;
  int32_t pid, tid;
  uint32_t prio;  // AndroidLogPriority
  std::string tag, msg;
};

class AndroidWorld {
 public:
  AndroidWorld(const WorldOptions& o, synth::TraceFile* file);

  Simulator& sim() { return sim_; }
  synth::Rng& rng() { return sim_.rng(); }
  const WorldOptions& options() const { return o_; }
  int64_t start() const { return o_.start_ns; }
  int64_t end() const { return o_.start_ns + o_.duration_ns; }
  int64_t period() const { return sim_.device().vsync_period_ns(); }

  // Simulator indices.
  int32_t ss_proc = -1, sf_proc = -1, app_proc = -1;
  int32_t zygote_main = -1;
  int32_t ss_main = -1, ss_anim = -1, ss_input = -1, sf_main = -1, sf_re = -1;
  int32_t app_main = -1, app_render = -1, app_heap = -1, app_worker = -1, app_io = -1;
  std::vector<int32_t> ss_binders;
  std::vector<int32_t> noise_threads;
  static constexpr const char* kPackage = "com.example.feed";
  static constexpr int32_t kAppPid = 8123;
  static constexpr int32_t kSsPid = 1432;
  static constexpr int32_t kSfPid = 612;
  std::string LayerName() const;

  // Creates the app process (and its threads) now; when the world started without it (cold
  // start) it also writes the process_tree the process_stats data source emits for a new pid,
  // and the main thread starts with zygote's comm (it renames itself when it runs).
  void SpawnApp(int64_t ts);
  // Background threads that compete for `cpus_big` (all clusters when false) in [from, to).
  void AddCpuHogs(int count, int64_t from, int64_t to, bool big_only, int32_t prio);
  void Log(int64_t ts, int32_t pid, int32_t tid, uint32_t prio, std::string tag, std::string msg);
  // A pid for a process added by a scenario (unique in the world).
  int32_t NewPid() {
    const int32_t pid = next_pid_;
    next_pid_ += 53;
    return pid;
  }
  // The simulator index of kernel thread `name` ("kswapd0"), -1 if there is none.
  int32_t KernelThread(const std::string& name) const;
  // Process `pid` was killed at `ts`: memory polls stop listing it.
  void MarkKilled(int32_t pid, int64_t ts) { killed_[pid] = ts; }
  // Governor floor (touch boost) for the big cluster, as a frequency index.
  void SetBigBoost(bool on) { big_boost_ = on; }

  // Writes the header packets and starts the simulation.
  void Begin();
  // Runs the simulation to the end, then writes the buffered logs.
  void Finish();

  GroundTruth& truth() { return truth_; }
  // For scenarios that write packets of their own after the run (polled data sources).
  synth::TraceFile* file() { return file_; }

  // After the run: process_stats polls of every (non-kernel) process every `period`, each
  // with a steady size of its own; the app's RssAnon follows `app_anon_kb` when given. Fills
  // the memory facts of the ground truth.
  void WriteMemoryPolls(int64_t period, std::function<int64_t(int64_t ts)> app_anon_kb);

 private:
  void BuildSystem();
  void WriteHeader();
  void WriteClockSnapshot(int64_t boottime);
  void WriteProcessTree(int64_t ts, bool first);
  void Governor(uint32_t cluster, int64_t now);
  // One burst of background work (wrapped in an atrace slice when `traced`), then a sleep.
  void NoiseGenerator(int32_t thread, double mean_run, double mean_sleep, bool traced);

  WorldOptions o_;
  synth::TraceFile* file_;
  Simulator sim_;
  GroundTruth truth_;
  std::vector<LogLine> logs_;
  bool big_boost_ = false;
  // "B|pid|slice" / "E|pid" markers of background processes, by pid (reused, not rebuilt).
  struct NoiseMarkers {
    std::vector<std::string> begin;
    std::string end;
  };
  std::map<int32_t, NoiseMarkers> noise_markers_;
  std::vector<int32_t> kernel_procs_;  // simulator indices of kernel threads' "processes"
  int64_t app_spawned_at_ = -1;        // -1: running from the start
  std::map<int32_t, int64_t> killed_;  // pid → when it was killed
  int32_t next_pid_ = 2000;
};

Simulator::Options SimOptions(const WorldOptions& o);

}  // namespace tw::tracegen
