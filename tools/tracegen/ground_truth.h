#pragma once
// What a tracegen scenario injected and what the simulation then produced: the facts an
// analysis of the trace must find, written next to the trace as `<trace>.truth.json`.

#include <cstdint>
#include <string>
#include <vector>

namespace tw::tracegen {

struct JankyFrame {
  int64_t surface_token = 0;  // the app's vsync id: actual_frame_timeline_slice.name
  int64_t display_token = 0;  // SurfaceFlinger's display frame that presented it
  int64_t ts = 0;             // doFrame start
  int64_t dur = 0;            // to queueBuffer
  std::string jank_type;      // as trace_processor names it ("App Deadline Missed", ...)
  std::string cause;          // injected cause ("binder", "gpu_wait", ...), "none" if none
};

struct InjectedBinder {
  int32_t client_tid = 0, client_pid = 0, server_tid = 0, server_pid = 0;
  std::string client_thread, server_process, aidl;
  int64_t ts = 0, dur = 0;
};

// One input event as InputDispatcher and the app handled it (the InputTransport slices).
struct InputEventTruth {
  std::string type;     // "MOTION" / "KEY"
  std::string seq;      // the transport sequence number as the slices print it ("0x1")
  std::string action;   // "DOWN", "UP"
  int64_t dispatch_ts = 0;  // InputDispatcher sendMessage
  int64_t receive_ts = 0;   // the app's receiveMessage
  int64_t finish_ts = 0;    // the app's sendMessage(FINISHED)
  int64_t ack_ts = 0;       // InputDispatcher's receiveMessage(FINISHED)
};

struct GroundTruth {
  std::string scenario;
  uint64_t seed = 0;
  double duration_s = 0;
  int fps = 0;
  double severity = 0;
  bool compact_sched = true;
  int64_t trace_start_ns = 0, trace_end_ns = 0;

  std::string app_package;
  int32_t app_pid = 0, app_main_tid = 0, app_render_tid = 0, system_server_pid = 0,
          surfaceflinger_pid = 0;

  int64_t frames_total = 0;   // app surface frames in the frame timeline
  int64_t frames_janky = 0;   // of which jank_type != None
  int64_t frames_app_deadline_missed = 0;
  std::vector<JankyFrame> janky_frames;
  std::vector<int64_t> injected_frame_tokens;  // frames an injection targeted

  std::vector<InjectedBinder> injected_binder;
  int64_t binder_transactions_total = 0;

  // Startup.
  std::string startup_type;  // cold / warm / hot, empty when none
  int64_t startup_ts = 0, startup_dur = 0;
  int64_t startup_main_thread_d_state_ns = 0;  // slow I/O variant

  // Garbage collection / lock contention / CPU contention / thermal.
  int64_t gc_events = 0;
  int64_t monitor_contentions = 0;
  int64_t main_thread_runnable_ns = 0;  // during injected contention windows
  // CPU contention: the window the hog threads ran in, their process and how many there were.
  int64_t cpu_contention_from_ns = 0, cpu_contention_to_ns = 0;
  std::string cpu_hog_process;
  int32_t cpu_hog_threads = 0;
  int64_t thermal_cap_ts = 0;
  uint32_t thermal_cap_khz = 0;
  std::vector<uint32_t> thermal_capped_cpus;
  // Thermal zones (sys_stats): the hottest zone's name and its peak, and the samples per zone.
  std::string thermal_hottest_zone;
  int64_t thermal_hottest_c = 0;
  int64_t thermal_samples_per_zone = 0;

  // Memory (process_stats polls): the app's VmRSS at the first and last poll, its peak, and
  // the number of polls.
  int64_t app_rss_first_bytes = 0, app_rss_last_bytes = 0, app_rss_peak_bytes = 0;
  int64_t memory_polls = 0;

  // Input events delivered to the app, in dispatch order.
  std::vector<InputEventTruth> input_events;

  // ANR.
  std::string anr_type;
  int64_t anr_ts = 0;
  std::vector<std::string> anr_blocking_chain;  // "main thread (tid) waits on lock X", ...
  int32_t anr_blocking_tid = 0;

  // What the scenario planted, as the cause keys an analysis names ("binder", "gc", "io",
  // "lock", "cpu_runnable", "cpu_frequency", "lmk", "reclaim", "input_handling", ...), most
  // important first; and what it added that must not be blamed (decoys, described).
  std::vector<std::string> planted_causes;
  std::vector<std::string> decoys;
  // A time window the problem is confined to (a bad interval in a long trace); 0 when none.
  int64_t problem_from_ns = 0, problem_to_ns = 0;
  // Startup: the blocking causes planted on the main thread, with their planted time.
  std::vector<std::pair<std::string, int64_t>> startup_blocking;
  // Memory pressure: low-memory kills (victim process names), direct reclaims on app threads.
  std::vector<std::string> lmk_victims;
  int64_t direct_reclaims = 0;
  int64_t direct_reclaim_ns = 0;
  // Power: the thread that wakes the CPUs from idle (planted wakeups), and the oneway binder
  // flood beside it (calls made, the AIDL method).
  std::string wakeup_process, wakeup_thread;
  int64_t wakeups_planted = 0;
  std::string oneway_method;
  int64_t oneway_calls = 0;
  // File syncs (f2fs fsync) made by `fsync_thread` of the wakeup process.
  std::string fsync_thread;
  int64_t fsyncs = 0;
  // Input handling: events whose handler took long, and the slice that did the work.
  int64_t slow_input_events = 0;
  std::string slow_input_slice;

  // Generation facts.
  int64_t bytes = 0;
  int64_t ftrace_events = 0;
  int64_t sched_events = 0;

  std::string ToJson() const;
};

}  // namespace tw::tracegen
