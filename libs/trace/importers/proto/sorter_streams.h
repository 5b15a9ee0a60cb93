#pragma once
// Which sorter stream a Perfetto trace's event belongs to, numbered as trace_processor (v58)
// creates its sorter queues: the trace-packet queue and the track-event queue first (when the
// reader starts), then one queue per cpu for each kind of ftrace data — plain events, compact
// sched switches, compact sched wakings — created when the first event of that kind arrives for
// a cpu, together with the queues of every lower cpu of that kind not made yet. The sorter
// breaks ties across streams by this numbering (libs/trace/sorter/event_sorter.h), so threads
// first seen at equal timestamps on two cpus get trace_processor's utids.

#include <cstdint>
#include <vector>

#include "libs/trace/events/events.h"

namespace tw {

class SorterStreams {
 public:
  static constexpr uint32_t kTracePackets = 0;
  static constexpr uint32_t kTrackEvents = 1;

  // The stream of `e` pushed to sorter queue `queue` (EventSorter::QueueForCpu for ftrace
  // data, QueueForSequence for everything else). Creates streams on first use.
  uint32_t For(uint32_t queue, const Event& e);

 private:
  enum FtraceKind { kPlainFtrace, kCompactSwitch, kCompactWaking, kFtraceKinds };
  uint32_t ForCpu(FtraceKind kind, uint32_t cpu);

  uint32_t next_stream_ = kTrackEvents + 1;
  std::vector<uint32_t> per_cpu_[kFtraceKinds];  // stream number by cpu, per kind
};

}  // namespace tw
