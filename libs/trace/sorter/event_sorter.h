#pragma once
// Orders events by timestamp before the trackers derive state, as trace_processor does: ftrace
// arrives per-CPU, track events per sequence, and buffers are written out of order. Each source
// (cpu or sequence) has its own queue, normally already sorted, so extraction is a k-way merge.
// With a window, events older than (newest - window) are flushed as the trace advances.

#include <cstdint>
#include <functional>
#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/sorter/packed_event_queue.h"

namespace tw {

class EventSorter {
 public:
  using Sink = std::function<void(Event&)>;

  // `window_ns` 0: keep everything until Finish(). `sink` receives events in order.
  EventSorter(int64_t window_ns, Sink sink) : window_ns_(window_ns), sink_(std::move(sink)) {}
  ~EventSorter();

  // `queue` identifies the source: use QueueForCpu / QueueForSequence.
  void Push(uint32_t queue, Event event);
  // Events pushed to `queue` between BeginBatch and EndBatch (one ftrace bundle: compact_sched
  // columns and plain events decoded one kind after another) are ordered among themselves,
  // stably by timestamp, before they join the queue. The result is what pushing them one by
  // one gives, but a queue whose batches follow each other in time stays sorted, so Finish()
  // merges instead of sorting it. Batches do not nest.
  void BeginBatch(uint32_t queue);
  void EndBatch();
  // Flushes every buffered event, in order.
  void Finish();

  static uint32_t QueueForCpu(uint32_t cpu) { return cpu; }
  static uint32_t QueueForSequence(uint32_t seq) { return kMaxCpus + seq; }

  int64_t out_of_order_events() const { return out_of_order_; }
  size_t buffered() const { return buffered_; }

 private:
  static constexpr uint32_t kMaxCpus = 1024;
  struct Queue {
    PackedEventQueue events;
    int64_t max_ts = INT64_MIN;
    bool sorted = true;
  };

  Queue& QueueAt(uint32_t id);
  void Enqueue(uint32_t queue, Event event);
  void FlushUntil(int64_t limit);

  int64_t window_ns_;
  Sink sink_;
  std::vector<Queue> cpu_queues_;
  std::vector<Queue> seq_queues_;
  uint32_t next_seq_ = 0;
  int64_t newest_ts_ = INT64_MIN;
  int64_t last_flushed_ts_ = INT64_MIN;
  int64_t out_of_order_ = 0;
  size_t buffered_ = 0;
  size_t pushes_since_flush_ = 0;
  size_t drained_since_trim_ = 0;
  bool batching_ = false;
  uint32_t batch_queue_ = 0;
  std::vector<Event> batch_;
};

}  // namespace tw
