#pragma once
// Which ftrace events arrived too early to be trusted, as trace_processor decides:
//   - before tracing started (the service's tracing_started event), the kernel buffer held
//     data from before this trace: dropped (stat ftrace_packet_before_tracing_start), unless
//     the trace asked to preserve the ftrace buffer;
//   - before every cpu's ring buffer is complete (the latest of the cpus' first-bundle
//     "previous bundle end" times, ftrace_latest_data_start_ns), an operation seen starting
//     on one cpu may have its end on a cpu whose data is lost: such events keep only their
//     ftrace_event row, nothing derived from them (no sched slices, thread states, slices or
//     counters).
// The window is read from the metadata when the first ftrace event is routed, by when every
// packet has been imported (the sorter sorts the whole trace first by default).

#include <cstdint>
#include <limits>

#include "libs/trace/storage/trace_storage.h"

namespace tw {

class FtraceDropWindow {
 public:
  enum class Verdict { kKeep, kRawOnly, kDrop };

  explicit FtraceDropWindow(TraceStorage* storage) : storage_(storage) {}

  // FtraceStats.preserve_ftrace_buffer was set: nothing is dropped for predating tracing.
  void set_buffer_preserved(bool preserved) { buffer_preserved_ = preserved; }

  Verdict For(int64_t ts) {
    if (!known_) Compute();
    if (ts >= raw_only_before_) [[likely]] return Verdict::kKeep;
    return ts < drop_before_ ? Verdict::kDrop : Verdict::kRawOnly;
  }

 private:
  void Compute();

  TraceStorage* storage_;
  bool buffer_preserved_ = false;
  bool known_ = false;
  int64_t drop_before_ = std::numeric_limits<int64_t>::min();
  int64_t raw_only_before_ = std::numeric_limits<int64_t>::min();
};

}  // namespace tw
