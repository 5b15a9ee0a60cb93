#include "libs/trace/sorter/event_sorter.h"

#include <algorithm>

#include "libs/trace/sorter/stream_tournament.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tw {
namespace {

bool Before(const Event& a, const Event& b) {
  return a.ts < b.ts || (a.ts == b.ts && a.seq < b.seq);
}

// While the queues drain, the trackers' tables grow: hand the pages the drained events (and
// their payloads) occupied back to the system every so many events, so the buffered trace and
// the finished tables are not both resident at the end of an import. malloc keeps freed memory
// in the middle of its heap otherwise; malloc_trim releases every whole free page.
constexpr size_t kEventsPerTrim = size_t{1} << 20;

void ReleaseFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace

// The queues release the payloads of the events they still hold.
EventSorter::~EventSorter() {
  for (BatchEntry& b : batch_) b.event.Release();
}

EventSorter::Queue& EventSorter::QueueAt(uint32_t id, uint32_t stream) {
  std::vector<Source>& sources = IsCpuQueue(id) ? cpu_sources_ : seq_sources_;
  const uint32_t index = IsCpuQueue(id) ? id : id - kMaxCpus;
  if (index >= sources.size()) sources.resize(index + 1);
  std::vector<std::unique_ptr<Queue>>& queues = sources[index].by_stream;
  for (const std::unique_ptr<Queue>& q : queues) {
    if (q->stream == stream) return *q;
  }
  queues.push_back(std::make_unique<Queue>());
  queues.back()->stream = stream;
  return *queues.back();
}

void EventSorter::BeginBatch(uint32_t queue) {
  batching_ = true;
  batch_queue_ = queue;
  batch_.clear();
}

// Whether every stream's events in the batch come in timestamp order (a bundle's compact
// switches, compact wakings and plain events each do, though interleaved in time).
bool EventSorter::BatchInOrderPerStream() const {
  struct Last {
    uint32_t stream;
    int64_t ts;
  };
  std::vector<Last> last;  // a batch feeds a handful of streams
  for (const BatchEntry& b : batch_) {
    auto it = std::find_if(last.begin(), last.end(),
                           [&](const Last& l) { return l.stream == b.stream; });
    if (it == last.end()) {
      last.push_back({b.stream, b.event.ts});
    } else if (b.event.ts < it->ts) {
      return false;
    } else {
      it->ts = b.event.ts;
    }
  }
  return true;
}

void EventSorter::EndBatch() {
  batching_ = false;
  if (!BatchInOrderPerStream()) {
    std::stable_sort(batch_.begin(), batch_.end(), [](const BatchEntry& a, const BatchEntry& b) {
      return a.event.ts < b.event.ts;
    });
  }
  for (BatchEntry& b : batch_) Enqueue(batch_queue_, b.stream, std::move(b.event));
  batch_.clear();
}

void EventSorter::Push(uint32_t queue, uint32_t stream, Event event) {
  if (batching_ && queue == batch_queue_) {
    batch_.push_back({std::move(event), stream});
    return;
  }
  Enqueue(queue, stream, std::move(event));
}

// Push order is the tie-break on equal timestamps within a stream: a batch's events get theirs
// once ordered.
void EventSorter::Enqueue(uint32_t queue, uint32_t stream, Event event) {
  event.seq = next_seq_++;
  if (event.ts < last_flushed_ts_) {
    // Too late to be ordered: the window already moved past it. Deliver it now rather than
    // dropping it, and count it so the stats show the trace needed a larger window.
    ++out_of_order_;
    sink_(event);
    event.Release();
    return;
  }
  Queue& q = QueueAt(queue, stream);
  if (event.ts < q.max_ts) q.sorted = false;
  q.max_ts = std::max(q.max_ts, event.ts);
  newest_ts_ = std::max(newest_ts_, event.ts);
  q.events.Push(event);
  ++buffered_;
  // Flushing is amortised: only every 64k pushes is the window checked.
  if (window_ns_ > 0 && ++pushes_since_flush_ >= 65536) {
    pushes_since_flush_ = 0;
    if (newest_ts_ - window_ns_ > last_flushed_ts_) FlushUntil(newest_ts_ - window_ns_);
  }
}

void EventSorter::Finish() { FlushUntil(INT64_MAX); }

// One stream's non-empty queues, merged by (ts, push order): a min-heap on their heads.
class EventSorter::StreamMerge {
 public:
  explicit StreamMerge(uint32_t stream) : stream_(stream) {}
  void Add(Queue* q) {
    heap_.push_back(q);
    std::push_heap(heap_.begin(), heap_.end(), Later);
  }
  uint32_t stream() const { return stream_; }
  bool empty() const { return heap_.empty(); }
  const Event& head() const { return heap_.front()->events.front(); }
  // The queue holding head(); call Popped() once its front was taken.
  Queue& head_queue() { return *heap_.front(); }
  void Popped() {
    if (heap_.front()->events.empty()) {
      heap_.front() = heap_.back();
      heap_.pop_back();
    }
    // Most streams have one source (each cpu's kinds of ftrace data): nothing to restore.
    if (heap_.size() > 1) SiftDownTop();
  }

 private:
  static bool Later(const Queue* a, const Queue* b) {
    return Before(b->events.front(), a->events.front());
  }
  // The top's head moved on (or another queue took its place): restore the heap below it.
  void SiftDownTop() {
    const size_t n = heap_.size();
    size_t i = 0;
    while (true) {
      size_t earliest = i;
      for (size_t child = 2 * i + 1; child <= 2 * i + 2 && child < n; ++child) {
        if (Later(heap_[earliest], heap_[child])) earliest = child;
      }
      if (earliest == i) return;
      std::swap(heap_[i], heap_[earliest]);
      i = earliest;
    }
  }
  uint32_t stream_;
  std::vector<Queue*> heap_;
};

// The merge hands events on in blocks: taking a block's worth from the queues, then running the
// trackers over it, keeps each side's working set (queue heads and the tournament; tables and
// hash maps) in cache for a while instead of evicting each other at every event.
void EventSorter::Take(Queue& q) {
  Event& e = q.events.front();
  last_flushed_ts_ = e.ts;
  block_.push_back(e);  // the block now owns the payload: the queue's Pop does not release it
  q.events.Pop();
  --buffered_;
  if (block_.size() == kBlockEvents) DeliverBlock();
}

void EventSorter::DeliverBlock() {
  for (Event& e : block_) {
    sink_(e);
    e.Release();
    if (++drained_since_trim_ >= kEventsPerTrim) {
      drained_since_trim_ = 0;
      ReleaseFreedMemory();
    }
  }
  block_.clear();
}

void EventSorter::FlushUntil(int64_t limit) {
  // Group the non-empty queues by stream, sorting a queue that arrived out of order.
  std::vector<StreamMerge> streams;
  for (auto* sources : {&cpu_sources_, &seq_sources_}) {
    for (Source& source : *sources) {
      for (const std::unique_ptr<Queue>& q : source.by_stream) {
        if (q->events.empty()) continue;
        if (!q->sorted) {
          // (ts, seq) is a total order, so an unstable sort gives the same result without the
          // temporary buffer stable_sort allocates on every flush.
          q->events.Sort(Before);
          q->sorted = true;
        }
        auto it = std::find_if(streams.begin(), streams.end(),
                               [&](const StreamMerge& s) { return s.stream() == q->stream; });
        if (it == streams.end()) it = streams.insert(streams.end(), StreamMerge(q->stream));
        it->Add(q.get());
      }
    }
  }
  // The tournament's leaves in stream-number order, so that its tie rule (the lower leaf) is
  // trace_processor's (the stream created first).
  std::sort(streams.begin(), streams.end(), [](const StreamMerge& a, const StreamMerge& b) {
    return a.stream() < b.stream();
  });
  std::vector<int64_t> heads;
  heads.reserve(streams.size());
  for (const StreamMerge& s : streams) heads.push_back(s.head().ts);
  StreamTournament tournament(heads);
  while (!tournament.done() && tournament.winner_ts() <= limit) {
    StreamMerge& s = streams[tournament.winner()];
    const int64_t bound = std::min(limit, tournament.RunnerUpTs());
    // Drain it while its events are <= every other stream's head (and the limit).
    do {
      Take(s.head_queue());
      s.Popped();
    } while (!s.empty() && s.head().ts <= bound);
    if (s.empty()) {
      tournament.ExhaustWinner();
    } else {
      tournament.AdvanceWinner(s.head().ts);
    }
  }
  DeliverBlock();
}

}  // namespace tw
