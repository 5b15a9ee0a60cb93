#include "libs/trace/importers/proto/sorter_streams.h"

#include "libs/trace/sorter/event_sorter.h"

namespace tw {

uint32_t SorterStreams::For(uint32_t queue, const Event& e) {
  if (!EventSorter::IsCpuQueue(queue)) {
    return e.type == EventType::kTrackEvent ? kTrackEvents : kTracePackets;
  }
  const uint32_t cpu = EventSorter::CpuOfQueue(queue);
  if (e.compact && e.type == EventType::kSchedSwitch) return ForCpu(kCompactSwitch, cpu);
  if (e.compact && e.type == EventType::kSchedWaking) return ForCpu(kCompactWaking, cpu);
  return ForCpu(kPlainFtrace, cpu);
}

uint32_t SorterStreams::ForCpu(FtraceKind kind, uint32_t cpu) {
  std::vector<uint32_t>& streams = per_cpu_[kind];
  // trace_processor grows a kind's queues to cover every cpu up to this one, in cpu order.
  while (streams.size() <= cpu) streams.push_back(next_stream_++);
  return streams[cpu];
}

}  // namespace tw
