#pragma once
// Context probes (DESIGN.md §5, issue 8): what a model must know about a trace before it plans —
// its length, which data sources it has (data completeness), the likely focus app, the CPU count
// and the display refresh rate. A handful of cheap SQL queries; the orchestrator caches the
// result per trace and puts Describe() in the prompt's per-trace (cacheable) tier.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/skills/skill_executor.h"

namespace tw::agent {

struct TraceContext {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  int64_t cpus = 0;
  int64_t processes = 0;
  int64_t threads = 0;
  // Row counts of the main data sources; 0 = the trace lacks that data.
  int64_t sched_slices = 0;
  int64_t thread_states = 0;
  int64_t slices = 0;
  int64_t frames = 0;          // actual_frame_timeline_slice
  int64_t cpu_freq_samples = 0;
  int64_t log_lines = 0;
  std::string focus_app;       // the app with the most frames, else the busiest app process
  int64_t focus_upid = -1;
  double refresh_hz = 0;       // from the median expected frame duration; 0 = unknown
  std::vector<std::string> missing;  // data sources absent, in words

  int64_t duration_ns() const { return end_ns - start_ns; }
  std::string Describe() const;
};

// Errors only when the trace cannot be queried at all; a probe that fails leaves its field 0.
absl::StatusOr<TraceContext> ProbeTraceContext(skills::SkillQueryRunner& sql);

}  // namespace tw::agent
