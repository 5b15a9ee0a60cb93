#include "libs/trace/sorter/packed_event_queue.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace tw {
namespace {

// Events compare equal when every field and every union byte survived the encoding.
void ExpectSameEvent(const Event& want, const Event& got) {
  EXPECT_EQ(want.ts, got.ts);
  EXPECT_EQ(want.seq, got.seq);
  EXPECT_EQ(want.pid, got.pid);
  EXPECT_EQ(want.type, got.type);
  EXPECT_EQ(want.compact, got.compact);
  EXPECT_EQ(want.cpu, got.cpu);
  EXPECT_EQ(want.ftrace_row, got.ftrace_row);
  EXPECT_EQ(want.owns_payload, got.owns_payload);
  EXPECT_EQ(want.machine, got.machine);
  EXPECT_EQ(want.from_ftrace, got.from_ftrace);
  EXPECT_EQ(0, std::memcmp(&want.payload, &got.payload, sizeof(Event) - offsetof(Event, payload)));
}

Event Switch(int64_t ts, uint32_t seq, int32_t prev_pid, int32_t next_pid, int32_t state) {
  Event e;
  e.ts = ts;
  e.seq = seq;
  e.pid = prev_pid;
  e.cpu = 3;
  e.type = EventType::kSchedSwitch;
  e.sched_switch = SchedSwitchData{prev_pid, next_pid, 120, 98, 7, 9, state};
  return e;
}

std::vector<Event> DrainAll(PackedEventQueue& q) {
  std::vector<Event> out;
  while (!q.empty()) {
    out.push_back(q.front());
    q.Pop();
  }
  return out;
}

TEST(PackedEventQueueTest, EveryFieldRoundTripsIncludingExtremes) {
  std::vector<Event> in;
  in.push_back(Switch(100, 1, 10, 20, 1));
  Event waking;
  waking.ts = 90;  // earlier than the previous event: a negative delta
  waking.seq = 0;
  waking.pid = -1;
  waking.cpu = 1023;
  waking.compact = 1;
  waking.machine = 255;  // a remote machine's event between two of the host's
  waking.type = EventType::kSchedWaking;
  waking.sched_waking = SchedWakingData{-5, 7, 120, 4, 0xFFFF, 2, 1, 2, 1};
  in.push_back(waking);
  Event idle;
  idle.ts = std::numeric_limits<int64_t>::max();
  idle.seq = std::numeric_limits<uint32_t>::max();
  idle.pid = std::numeric_limits<int32_t>::min();
  idle.type = EventType::kCpuIdle;
  idle.ftrace_row = 1;
  idle.from_ftrace = 1;
  idle.cpu_counter = CpuCounterData{5, 0x8000'0000u, 4294967295.0};
  in.push_back(idle);
  Event first;
  first.ts = std::numeric_limits<int64_t>::min();  // the delta from INT64_MAX wraps around
  first.type = EventType::kImportLog;
  in.push_back(first);
  in.push_back(Switch(0, 2, std::numeric_limits<int32_t>::max(), -1, -1));

  PackedEventQueue q;
  for (const Event& e : in) q.Push(e);
  EXPECT_EQ(q.size(), in.size());
  const std::vector<Event> out = DrainAll(q);
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectSameEvent(in[i], out[i]);
  }
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.memory_bytes(), 0u);
}

TEST(PackedEventQueueTest, RandomEventsRoundTripAcrossManyChunks) {
  std::mt19937_64 rng(17);
  std::vector<Event> in;
  int64_t ts = 1'000'000;
  for (uint32_t i = 0; i < 50'000; ++i) {
    Event e;
    ts += static_cast<int64_t>(rng() % 100'000);
    e.ts = ts;
    e.seq = i * 3;
    e.pid = static_cast<int32_t>(rng() % 4) == 0 ? -1 : static_cast<int32_t>(rng() % 40'000);
    e.cpu = static_cast<uint16_t>(rng() % 8);
    e.type = static_cast<EventType>(rng() % 9);
    e.compact = rng() % 2;
    e.machine = rng() % 5 == 0 ? static_cast<uint8_t>(rng() % 3) : 0;
    e.from_ftrace = rng() % 2;
    uint8_t* u = reinterpret_cast<uint8_t*>(&e) + offsetof(Event, payload);
    for (size_t b = 0; b < sizeof(Event) - offsetof(Event, payload); ++b) {
      u[b] = rng() % 3 == 0 ? static_cast<uint8_t>(rng()) : 0;
    }
    in.push_back(e);
  }
  PackedEventQueue q;
  for (const Event& e : in) q.Push(e);
  const std::vector<Event> out = DrainAll(q);
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectSameEvent(in[i], out[i]);
  }
}

TEST(PackedEventQueueTest, SchedEventsTakeFarLessThanTheStruct) {
  // One cpu's switches: small pids, a few comm ids, timestamps 10-100 us apart.
  PackedEventQueue q;
  constexpr uint32_t kEvents = 100'000;
  int64_t ts = 0;
  for (uint32_t i = 0; i < kEvents; ++i) {
    ts += 10'000 + (i * 7919) % 90'000;
    q.Push(Switch(ts, i * 2, static_cast<int32_t>(1000 + i % 300),
                  static_cast<int32_t>(1000 + (i + 1) % 300), i % 2));
  }
  const double bytes_per_event = static_cast<double>(q.memory_bytes()) / kEvents;
  EXPECT_LT(bytes_per_event, 20.0) << "vs sizeof(Event) = " << sizeof(Event);
}

TEST(PackedEventQueueTest, DrainingFreesChunks) {
  PackedEventQueue q;
  for (uint32_t i = 0; i < 200'000; ++i) q.Push(Switch(i * 1000, i, 5, 6, 1));
  const size_t full = q.memory_bytes();
  for (uint32_t i = 0; i < 150'000; ++i) q.Pop();
  EXPECT_LT(q.memory_bytes(), full / 3);
  EXPECT_EQ(q.front().ts, 150'000 * 1000);
}

TEST(PackedEventQueueTest, SortOrdersByTheGivenComparator) {
  PackedEventQueue q;
  const int64_t ts[] = {50, 10, 30, 10, 20};
  for (uint32_t i = 0; i < 5; ++i) q.Push(Switch(ts[i], i, static_cast<int32_t>(i), 0, 0));
  q.Sort([](const Event& a, const Event& b) {
    return a.ts < b.ts || (a.ts == b.ts && a.seq < b.seq);
  });
  std::vector<std::pair<int64_t, uint32_t>> order;
  for (const Event& e : DrainAll(q)) order.push_back({e.ts, e.seq});
  EXPECT_EQ(order, (std::vector<std::pair<int64_t, uint32_t>>{
                       {10, 1}, {10, 3}, {20, 4}, {30, 2}, {50, 0}}));
}

// A payload that counts its destructions, to check who frees heap payloads.
int g_payloads_freed = 0;
struct Counted {
  Counted() = default;
  Counted(Counted&& other) noexcept : live(other.live) { other.live = false; }
  ~Counted() {
    if (live) ++g_payloads_freed;
  }
  bool live = true;
};

TEST(PackedEventQueueTest, OwnsThePayloadsOfEventsNeverPopped) {
  g_payloads_freed = 0;
  {
    PackedEventQueue q;
    for (int i = 0; i < 10; ++i) q.Push(Event::WithPayload(i, EventType::kImportLog, Counted()));
    // The caller takes the first two (releasing them), the queue keeps the rest.
    for (int i = 0; i < 2; ++i) {
      EXPECT_TRUE(q.front().owns_payload);
      q.front().Release();
      q.Pop();
    }
    EXPECT_EQ(g_payloads_freed, 2);
    PackedEventQueue moved = std::move(q);
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(moved.size(), 8u);
  }
  EXPECT_EQ(g_payloads_freed, 10);
}

}  // namespace
}  // namespace tw
