#include "libs/trace/sorter/event_sorter.h"

#include <gtest/gtest.h>

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
