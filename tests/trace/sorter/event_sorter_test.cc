#include "libs/trace/sorter/event_sorter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace tw {
namespace {

Event At(int64_t ts, int32_t pid = 0) {
  Event e;
  e.ts = ts;
  e.type = EventType::kCpuIdle;
  e.pid = pid;
  return e;
}

std::vector<int64_t> Drain(int64_t window, const std::vector<std::pair<uint32_t, int64_t>>& in,
                           int64_t* late = nullptr) {
  std::vector<int64_t> out;
  EventSorter sorter(window, [&](Event& e) { out.push_back(e.ts); });
  for (auto [queue, ts] : in) sorter.Push(queue, At(ts));
  sorter.Finish();
  if (late) *late = sorter.out_of_order_events();
  return out;
}

TEST(EventSorterTest, MergesQueuesByTimestamp) {
  const auto out = Drain(0, {{0, 10}, {0, 30}, {1, 5}, {1, 20}, {EventSorter::QueueForSequence(3), 15}});
  EXPECT_EQ(out, (std::vector<int64_t>{5, 10, 15, 20, 30}));
}

TEST(EventSorterTest, SortsAQueueThatArrivedOutOfOrder) {
  const auto out = Drain(0, {{2, 50}, {2, 10}, {2, 30}, {0, 20}});
  EXPECT_EQ(out, (std::vector<int64_t>{10, 20, 30, 50}));
}

TEST(EventSorterTest, EqualTimestampsKeepPushOrder) {
  std::vector<int32_t> pids;
  EventSorter sorter(0, [&](Event& e) { pids.push_back(e.pid); });
  sorter.Push(1, At(7, 1));
  sorter.Push(0, At(7, 2));
  sorter.Push(1, At(7, 3));
  sorter.Finish();
  EXPECT_EQ(pids, (std::vector<int32_t>{1, 2, 3}));
}

struct StreamIn {
  uint32_t queue;
  uint32_t stream;
  int64_t ts;
  int32_t pid;
};

std::vector<int32_t> DrainStreams(const std::vector<StreamIn>& in) {
  std::vector<int32_t> pids;
  EventSorter sorter(0, [&](Event& e) { pids.push_back(e.pid); });
  for (const StreamIn& i : in) sorter.Push(i.queue, i.stream, At(i.ts, i.pid));
  sorter.Finish();
  return pids;
}

// Two cpus' sched_switch streams both switch at t=30 (trace_processor's rule, not push order):
// cpu 1's stream drains 10 and stops before 30 because cpu 3's head (20) is earlier; cpu 3's
// stream then drains 20 and, its next event being <= cpu 1's head, 30 too.
TEST(EventSorterTest, TieAcrossStreamsGoesToTheStreamBeingDrained) {
  const auto pids = DrainStreams({{1, 2, 10, 1}, {1, 2, 30, 2}, {3, 4, 20, 3}, {3, 4, 30, 4}});
  EXPECT_EQ(pids, (std::vector<int32_t>{1, 3, 4, 2}));
}

// When a run starts, equal heads go to the stream created first (the lowest number), whatever
// was pushed first.
TEST(EventSorterTest, TieBetweenHeadsGoesToTheFirstCreatedStream) {
  const auto pids = DrainStreams({{5, 7, 10, 1}, {6, 3, 10, 2}, {0, 5, 10, 3}});
  EXPECT_EQ(pids, (std::vector<int32_t>{2, 3, 1}));
}

// A run keeps going through several equal timestamps of its own before yielding.
TEST(EventSorterTest, RunDrainsEveryEventUpToTheNextStreamsHead) {
  const auto pids = DrainStreams({{0, 0, 20, 1}, {0, 0, 20, 2}, {0, 0, 25, 3},
                                  {1, 1, 5, 4}, {1, 1, 20, 5}, {1, 1, 20, 6}, {1, 1, 21, 7}});
  // Stream 1 starts (5) and drains up to stream 0's head, 20, inclusive; then stream 0 drains
  // up to stream 1's new head (21); then 21 and 25.
  EXPECT_EQ(pids, (std::vector<int32_t>{4, 5, 6, 1, 2, 7, 3}));
}

// Within one stream, sources merge by (ts, push order), exactly as before streams existed.
TEST(EventSorterTest, OneStreamFromSeveralSourcesKeepsPushOrder) {
  const auto pids = DrainStreams({{EventSorter::QueueForSequence(1), 0, 10, 1},
                                  {EventSorter::QueueForSequence(2), 0, 5, 2},
                                  {EventSorter::QueueForSequence(2), 0, 10, 3},
                                  {EventSorter::QueueForSequence(1), 0, 10, 4},
                                  {EventSorter::QueueForSequence(3), 1, 10, 5}});
  EXPECT_EQ(pids, (std::vector<int32_t>{2, 1, 3, 4, 5}));
}

// A batch may feed several streams (compact switches, compact wakings, plain events of one
// bundle): each stream receives its events in timestamp order.
TEST(EventSorterTest, BatchFeedsSeveralStreams) {
  std::vector<int32_t> pids;
  EventSorter sorter(0, [&](Event& e) { pids.push_back(e.pid); });
  sorter.BeginBatch(0);
  sorter.Push(0, 2, At(30, 1));
  sorter.Push(0, 2, At(10, 2));
  sorter.Push(0, 3, At(20, 3));
  sorter.Push(0, 3, At(10, 4));
  sorter.EndBatch();
  sorter.Finish();
  // Stream 2 (created first) wins the tie at 10 and drains until 10 (stream 3's head); stream 3
  // then drains 10 and 20 (<= 30); then 30.
  EXPECT_EQ(pids, (std::vector<int32_t>{2, 4, 3, 1}));
}

// Each stream's share of a batch already in order (a bundle's kinds, one after another): the
// batch gives what single pushes give, whether or not the batch is sorted as a whole.
TEST(EventSorterTest, BatchInOrderPerStreamOrdersLikeSinglePushes) {
  const std::vector<StreamIn> batch = {{0, 2, 10, 1}, {0, 2, 30, 2}, {0, 2, 30, 3},
                                       {0, 3, 5, 4},  {0, 3, 30, 5}, {0, 4, 20, 6}};
  auto run = [&](bool batched) {
    std::vector<int32_t> pids;
    EventSorter sorter(0, [&](Event& e) { pids.push_back(e.pid); });
    sorter.Push(1, 2, At(30, 100));  // another source of stream 2, pushed earlier
    if (batched) sorter.BeginBatch(0);
    for (const StreamIn& i : batch) sorter.Push(i.queue, i.stream, At(i.ts, i.pid));
    if (batched) sorter.EndBatch();
    sorter.Finish();
    return pids;
  };
  // 3 drains 5 (bound 10); 2 drains 10 (bound 20 = stream 4's head); 4 drains 20; then at 30
  // stream 2 (first created) drains its own 30s in push order, then stream 3's.
  const std::vector<int32_t> expected = {4, 1, 6, 100, 2, 3, 5};
  EXPECT_EQ(run(false), expected);
  EXPECT_EQ(run(true), expected);
}

// trace_processor's rule written out plainly, for the randomized check below: each stream's
// events in (ts, order of entering the sorter), a batch's events entering at EndBatch; then a
// run drains one stream while its head is <= every other stream's head, and a new run starts
// at the earliest head, the lowest stream on a tie.
std::vector<int32_t> ModelOrder(const std::vector<StreamIn>& entered) {
  std::vector<std::vector<StreamIn>> streams;
  for (const StreamIn& i : entered) {
    if (i.stream >= streams.size()) streams.resize(i.stream + 1);
    streams[i.stream].push_back(i);
  }
  for (auto& s : streams) {
    std::stable_sort(s.begin(), s.end(),
                     [](const StreamIn& a, const StreamIn& b) { return a.ts < b.ts; });
  }
  std::vector<size_t> next(streams.size(), 0);
  auto head = [&](size_t s) { return streams[s][next[s]].ts; };
  auto live = [&](size_t s) { return next[s] < streams[s].size(); };
  std::vector<int32_t> out;
  size_t current = streams.size();  // no run yet
  while (out.size() < entered.size()) {
    bool keep_going = current < streams.size() && live(current);
    for (size_t s = 0; keep_going && s < streams.size(); ++s) {
      if (s != current && live(s) && head(s) < head(current)) keep_going = false;
    }
    if (!keep_going) {
      current = streams.size();
      for (size_t s = 0; s < streams.size(); ++s) {
        if (live(s) && (current == streams.size() || head(s) < head(current))) current = s;
      }
    }
    out.push_back(streams[current][next[current]++].pid);
  }
  return out;
}

// Many sources and streams (a source may feed several, a stream may have several sources),
// timestamps drawn from a few values so that ties are everywhere, some pushes out of order and
// some in batches: the sorter orders exactly as the rule says.
TEST(EventSorterTest, RandomStreamsFollowTheMergeRule) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 300; ++trial) {
    const uint32_t sources = 1 + rng() % 6;
    const uint32_t streams = 1 + rng() % 30;
    std::vector<int32_t> got;
    EventSorter sorter(0, [&](Event& e) { got.push_back(e.pid); });
    std::vector<StreamIn> entered;
    std::vector<StreamIn> batch;
    bool batching = false;
    uint32_t batch_queue = 0;
    std::vector<int64_t> clock(sources, 0);
    const int events = 1 + static_cast<int>(rng() % 400);
    for (int32_t pid = 0; pid < events; ++pid) {
      if (!batching && rng() % 40 == 0) {
        batching = true;
        batch_queue = rng() % sources;
        sorter.BeginBatch(EventSorter::QueueForCpu(batch_queue));
      } else if (batching && rng() % 10 == 0) {
        batching = false;
        sorter.EndBatch();
        entered.insert(entered.end(), batch.begin(), batch.end());
        batch.clear();
      }
      const uint32_t source = batching ? batch_queue : rng() % sources;
      // Mostly advancing per source, sometimes stepping back.
      clock[source] += static_cast<int64_t>(rng() % 3);
      if (rng() % 25 == 0) clock[source] -= static_cast<int64_t>(rng() % 4);
      const StreamIn in{EventSorter::QueueForCpu(source), static_cast<uint32_t>(rng() % streams),
                         clock[source], pid};
      sorter.Push(in.queue, in.stream, At(in.ts, in.pid));
      (batching ? batch : entered).push_back(in);
    }
    if (batching) {
      sorter.EndBatch();
      entered.insert(entered.end(), batch.begin(), batch.end());
    }
    sorter.Finish();
    ASSERT_EQ(got, ModelOrder(entered)) << "trial " << trial;
  }
}

TEST(EventSorterTest, WindowFlushesOldEventsAndCountsLateOnes) {
  // 200k events on one cpu advancing 1 ns each with a 1000 ns window: most are flushed before
  // Finish, and an event older than the flushed point is reported as out of order.
  std::vector<int64_t> out;
  EventSorter sorter(1000, [&](Event& e) { out.push_back(e.ts); });
  for (int64_t i = 0; i < 200000; ++i) sorter.Push(0, At(i));
  EXPECT_LT(sorter.buffered(), 200000u);
  sorter.Push(1, At(5));  // far behind the window
  sorter.Finish();
  EXPECT_EQ(sorter.out_of_order_events(), 1);
  EXPECT_EQ(out.size(), 200001u);
}

TEST(EventSorterTest, FreesHeapPayloads) {
  int delivered = 0;
  {
    EventSorter sorter(0, [&](Event& e) {
      ++delivered;
      EXPECT_EQ(e.As<AndroidLogData>().pid, 42);
    });
    AndroidLogData log{42, 43, 4, kNullStringId, kNullStringId, {}};
    sorter.Push(0, Event::WithPayload(1, EventType::kAndroidLog, log));
    sorter.Finish();
  }
  EXPECT_EQ(delivered, 1);  // ASan builds check the payload was freed exactly once
}

// A batch (one ftrace bundle decoded column by column) gives exactly what pushing its events one
// by one gives: ties on ts keep push order, within the batch and against other queues.
TEST(EventSorterTest, BatchOrdersLikeSinglePushes) {
  struct In {
    uint32_t queue;
    int64_t ts;
    int32_t pid;
  };
  // Queue 0's batch: switches (pid 1..3) then wakings (pid 11..13), interleaved in time; queue
  // 1 pushes events with equal timestamps before and after the batch.
  const std::vector<In> before = {{1, 20, 100}, {1, 40, 101}};
  const std::vector<In> batch = {{0, 10, 1}, {0, 30, 2}, {0, 50, 3},
                                 {0, 20, 11}, {0, 30, 12}, {0, 40, 13}};
  const std::vector<In> after = {{1, 30, 102}, {0, 60, 4}};
  auto run = [&](bool batched) {
    std::vector<int32_t> pids;
    EventSorter sorter(0, [&](Event& e) { pids.push_back(e.pid); });
    for (const In& i : before) sorter.Push(i.queue, At(i.ts, i.pid));
    if (batched) sorter.BeginBatch(0);
    for (const In& i : batch) sorter.Push(i.queue, At(i.ts, i.pid));
    if (batched) sorter.EndBatch();
    for (const In& i : after) sorter.Push(i.queue, At(i.ts, i.pid));
    sorter.Finish();
    return pids;
  };
  const std::vector<int32_t> expected = {1, 100, 11, 2, 12, 102, 101, 13, 3, 4};
  EXPECT_EQ(run(false), expected);
  EXPECT_EQ(run(true), expected);
}

}  // namespace
}  // namespace tw
