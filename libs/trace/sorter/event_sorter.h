#pragma once
// Orders events by timestamp before the trackers derive state, as trace_processor does: ftrace
// arrives per-CPU, track events per sequence, and buffers are written out of order. Each source
// (cpu or sequence) has its own queue, normally already sorted, so extraction is a k-way merge.
// With a window, events older than (newest - window) are flushed as the trace advances.
//
// Equal timestamps: events are grouped into *streams*, what trace_processor calls its sorter
// queues (for a Perfetto trace: one for trace packets, one for track events, then one per cpu
// and kind of ftrace data, numbered in the order they were created). Within a stream, ties keep
// push order. Across streams trace_processor does not look at push order: it drains the stream
// with the earliest head, for as long as its events are <= the earliest head of every other
// stream, so a tie goes to the stream already being drained; when a run starts, a tie goes to
// the stream created first (the lowest number). Where a thread is first seen decides its utid,
// so this rule is visible in the tables. Events pushed without a stream are all in stream 0:
// one total order by (timestamp, push order), which is what single-queue formats (systrace,
// JSON) get from trace_processor too.

#include <cstdint>
#include <functional>
#include <memory>
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

  // `queue` identifies the source: use QueueForCpu / QueueForSequence. `stream` is the event's
  // stream number (see above); a source may feed several streams.
  void Push(uint32_t queue, Event event) { Push(queue, 0, std::move(event)); }
  void Push(uint32_t queue, uint32_t stream, Event event);
  // Events pushed to `queue` between BeginBatch and EndBatch (one ftrace bundle: compact_sched
  // columns and plain events decoded one kind after another) are ordered among themselves,
  // stably by timestamp, before they join the queue — unless each stream's share of the batch
  // is already in order, which is all that matters (order across streams is the merge's). The
  // result is what pushing them one by one gives, but a queue whose batches follow each other
  // in time stays sorted, so Finish() merges instead of sorting it. Batches do not nest.
  void BeginBatch(uint32_t queue);
  void EndBatch();
  // Flushes every buffered event, in order.
  void Finish();

  static uint32_t QueueForCpu(uint32_t cpu) { return cpu; }
  static uint32_t QueueForSequence(uint32_t seq) { return kMaxCpus + seq; }
  static bool IsCpuQueue(uint32_t queue) { return queue < kMaxCpus; }
  static uint32_t CpuOfQueue(uint32_t queue) { return queue; }

  int64_t out_of_order_events() const { return out_of_order_; }
  size_t buffered() const { return buffered_; }

 private:
  static constexpr uint32_t kMaxCpus = 1024;
  static constexpr size_t kBlockEvents = 256;
  // The events of one source and one stream.
  struct Queue {
    PackedEventQueue events;
    int64_t max_ts = INT64_MIN;
    bool sorted = true;
    uint32_t stream = 0;
  };
  // A source's queues, one per stream it fed (usually one, at most a few).
  struct Source {
    std::vector<std::unique_ptr<Queue>> by_stream;
  };
  struct BatchEntry {
    Event event;
    uint32_t stream;
  };
  class StreamMerge;
  bool BatchInOrderPerStream() const;

  Queue& QueueAt(uint32_t id, uint32_t stream);
  void Enqueue(uint32_t queue, uint32_t stream, Event event);
  void FlushUntil(int64_t limit);
  void Take(Queue& q);
  void DeliverBlock();

  int64_t window_ns_;
  Sink sink_;
  std::vector<Source> cpu_sources_;
  std::vector<Source> seq_sources_;
  uint32_t next_seq_ = 0;
  int64_t newest_ts_ = INT64_MIN;
  int64_t last_flushed_ts_ = INT64_MIN;
  int64_t out_of_order_ = 0;
  size_t buffered_ = 0;
  size_t pushes_since_flush_ = 0;
  size_t drained_since_trim_ = 0;
  bool batching_ = false;
  uint32_t batch_queue_ = 0;
  std::vector<BatchEntry> batch_;
  std::vector<Event> block_;  // taken from the queues in order, not yet given to the sink
};

}  // namespace tw
