#include "libs/trace/sorter/event_sorter.h"

#include <algorithm>
#include <queue>

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
  for (Event& e : batch_) e.Release();
}

EventSorter::Queue& EventSorter::QueueAt(uint32_t id) {
  std::vector<Queue>& queues = id < kMaxCpus ? cpu_queues_ : seq_queues_;
  const uint32_t index = id < kMaxCpus ? id : id - kMaxCpus;
  if (index >= queues.size()) queues.resize(index + 1);
  return queues[index];
}

void EventSorter::BeginBatch(uint32_t queue) {
  batching_ = true;
  batch_queue_ = queue;
  batch_.clear();
}

void EventSorter::EndBatch() {
  batching_ = false;
  if (!std::is_sorted(batch_.begin(), batch_.end(),
                      [](const Event& a, const Event& b) { return a.ts < b.ts; })) {
    std::stable_sort(batch_.begin(), batch_.end(),
                     [](const Event& a, const Event& b) { return a.ts < b.ts; });
  }
  for (Event& e : batch_) Enqueue(batch_queue_, std::move(e));
  batch_.clear();
}

void EventSorter::Push(uint32_t queue, Event event) {
  if (batching_ && queue == batch_queue_) {
    batch_.push_back(std::move(event));
    return;
  }
  Enqueue(queue, std::move(event));
}

// Push order is the tie-break on equal timestamps: a batch's events get theirs once ordered.
void EventSorter::Enqueue(uint32_t queue, Event event) {
  event.seq = next_seq_++;
  if (event.ts < last_flushed_ts_) {
    // Too late to be ordered: the window already moved past it. Deliver it now rather than
    // dropping it, and count it so the stats show the trace needed a larger window.
    ++out_of_order_;
    sink_(event);
    event.Release();
    return;
  }
  Queue& q = QueueAt(queue);
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

void EventSorter::FlushUntil(int64_t limit) {
  // Heads of all non-empty queues in a min-heap; pop the earliest, refill from its queue.
  std::vector<Queue*> active;
  for (auto* queues : {&cpu_queues_, &seq_queues_}) {
    for (Queue& q : *queues) {
      if (q.events.empty()) continue;
      if (!q.sorted) {
        // (ts, seq) is a total order, so an unstable sort gives the same result without the
        // temporary buffer stable_sort allocates on every flush.
        q.events.Sort(Before);
        q.sorted = true;
      }
      active.push_back(&q);
    }
  }
  auto later = [](const Queue* a, const Queue* b) {
    return Before(b->events.front(), a->events.front());
  };
  std::priority_queue<Queue*, std::vector<Queue*>, decltype(later)> heap(later,
                                                                         std::move(active));
  while (!heap.empty()) {
    Queue* q = heap.top();
    if (q->events.front().ts > limit) break;
    heap.pop();
    Event& e = q->events.front();
    last_flushed_ts_ = e.ts;
    sink_(e);
    e.Release();
    q->events.Pop();
    --buffered_;
    if (!q->events.empty()) heap.push(q);
    if (++drained_since_trim_ >= kEventsPerTrim) {
      drained_since_trim_ = 0;
      ReleaseFreedMemory();
    }
  }
}

}  // namespace tw
