#pragma once
// Writes synthetic, scheduler-heavy Perfetto traces for the import benchmark and tests: a small
// discrete-event model of N CPUs running M threads (run slices, preemption, blocking, wakeups
// from the running thread of some CPU, idle CPUs, load balancing), encoded the way traced_probes
// does (per-CPU ftrace bundles, plain sched_switch/sched_waking events or compact_sched).
//
// The trace streams to the file bundle by bundle, so its size is not bounded by memory. The same
// options and seed give the same scheduling whatever the encoding, so plain and compact traces
// can be compared table by table.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tools/synth/ftrace_cpu_bundles.h"

namespace tw::synth {

struct SchedTraceOptions {
  uint32_t cpus = 8;
  int64_t duration_ns = 60'000'000'000;
  uint32_t processes = 40;
  uint32_t threads = 320;            // in total, one main thread per process included
  int64_t mean_slice_ns = 200'000;   // mean run-slice length (exponential, clamped)
  // Offered load as a fraction of all CPUs: sets how long threads sleep between slices. At 0.9
  // the CPUs are ~88% busy with runnable waits of ~100 us (R/R+ rows); near 1.0 queues grow.
  double load = 0.9;
  SchedEncoding encoding = SchedEncoding::kPlain;
  uint32_t bundle_events = 1000;     // events per ftrace bundle per cpu, as traced writes them
  // Atrace B/E marker pairs (ftrace print) per second per busy CPU; 0 writes none.
  double print_rate_hz = 0;
  // Other event kinds, for benchmark shapes beyond switch/waking (all off by default):
  bool cpu_idle = false;                 // cpu_idle on every idle entry and exit, as cpuidle does
  double frequency_rate_hz = 0;          // cpu_frequency changes per second per CPU
  double blocked_reason_fraction = 0;    // share of D sleeps reported by sched_blocked_reason
  double counter_rate_hz = 0;            // atrace counter markers ("C|...") per second per busy CPU
  uint64_t seed = 1;
  int64_t start_ns = 100'000'000'000;  // BOOTTIME of the first event (uptime ~100 s)
  // uname release written in a system_info packet; empty writes none. It also picks the bit that
  // marks a preempted task ("R+") in prev_state, which moved between kernel versions.
  std::string kernel_release;
};

struct SchedTraceSummary {
  int64_t sched_switch = 0;
  int64_t sched_waking = 0;
  int64_t print = 0;
  int64_t cpu_idle = 0;
  int64_t cpu_frequency = 0;
  int64_t blocked_reason = 0;
  int64_t packets = 0;
  int64_t bytes = 0;
  int64_t first_ts = 0;
  int64_t last_ts = 0;
  std::vector<int64_t> switches_per_cpu;  // cpus with a non-zero count lose one switch in compact
  int64_t ftrace_events() const {
    return sched_switch + sched_waking + print + cpu_idle + cpu_frequency + blocked_reason;
  }
};

// INVALID_ARGUMENT for unusable options; an I/O error status when the file cannot be written.
absl::Status WriteSyntheticSchedTrace(const SchedTraceOptions& options, const std::string& path,
                                      SchedTraceSummary* summary = nullptr);

const char* SchedEncodingName(SchedEncoding e);

}  // namespace tw::synth
