#include "libs/trace/importers/proto/sorter_streams.h"

#include <gtest/gtest.h>

#include "libs/trace/sorter/event_sorter.h"

namespace tw {
namespace {

Event Of(EventType type, bool compact = false) {
  Event e;
  e.type = type;
  e.compact = compact ? 1 : 0;
  return e;
}

TEST(SorterStreamsTest, PacketsAndTrackEventsAreTheFirstTwoStreams) {
  SorterStreams streams;
  const uint32_t seq7 = EventSorter::QueueForSequence(7);
  const uint32_t seq9 = EventSorter::QueueForSequence(9);
  EXPECT_EQ(streams.For(seq7, Of(EventType::kTrackEvent)), SorterStreams::kTrackEvents);
  EXPECT_EQ(streams.For(seq9, Of(EventType::kTrackEvent)), SorterStreams::kTrackEvents);
  EXPECT_EQ(streams.For(seq7, Of(EventType::kCounter)), SorterStreams::kTracePackets);
  EXPECT_EQ(streams.For(seq9, Of(EventType::kAndroidLog)), SorterStreams::kTracePackets);
}

// Each kind of ftrace data gets its own stream per cpu, created when the kind is first seen on
// a cpu together with every lower cpu's stream of that kind.
TEST(SorterStreamsTest, FtraceStreamsPerKindAndCpuInCreationOrder) {
  SorterStreams streams;
  const uint32_t cpu0 = EventSorter::QueueForCpu(0);
  const uint32_t cpu1 = EventSorter::QueueForCpu(1);
  const uint32_t cpu2 = EventSorter::QueueForCpu(2);
  // First: a compact switch on cpu 2 makes the switch streams of cpus 0, 1, 2.
  EXPECT_EQ(streams.For(cpu2, Of(EventType::kSchedSwitch, true)), 4u);
  EXPECT_EQ(streams.For(cpu0, Of(EventType::kSchedSwitch, true)), 2u);
  // Then a compact waking on cpu 1: cpus 0 and 1 of that kind.
  EXPECT_EQ(streams.For(cpu1, Of(EventType::kSchedWaking, true)), 6u);
  // Then a plain event on cpu 0, and a plain sched_switch (same kind) on cpu 1.
  EXPECT_EQ(streams.For(cpu0, Of(EventType::kCpuIdle)), 7u);
  EXPECT_EQ(streams.For(cpu1, Of(EventType::kSchedSwitch)), 8u);
  // Earlier kinds keep their numbers; a new cpu extends only its own kind.
  EXPECT_EQ(streams.For(cpu1, Of(EventType::kSchedSwitch, true)), 3u);
  EXPECT_EQ(streams.For(cpu0, Of(EventType::kSchedWaking, true)), 5u);
  EXPECT_EQ(streams.For(cpu2, Of(EventType::kSchedWaking, true)), 9u);
}

}  // namespace
}  // namespace tw
