#pragma once
// A first-in first-out queue of events held in a compact byte encoding while the sorter buffers
// them. Without flush markers the sorter holds the whole trace until the end of decoding (as
// trace_processor does), so the buffered events, not the tables, set the import's peak memory:
// as 48-byte structs a 3.75 M-event trace buffers 172 MiB. Encoded they take about a third:
// fields are stored as deltas from the previous event of the queue (timestamps, push order,
// pid and cpu, which barely change on one cpu's queue), and the 24 bytes of the event's payload
// union as a mask of its nonzero bytes followed by those bytes (pids, priorities and string
// ids are mostly small, unused fields zero). Chunks are freed as the queue drains, so the
// memory they held goes to the tables the trackers are filling.
//
// The queue owns the heap payloads of the events it holds and releases those never popped.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "libs/trace/events/events.h"

namespace tw {

class PackedEventQueue {
 public:
  PackedEventQueue() = default;
  ~PackedEventQueue();
  PackedEventQueue(PackedEventQueue&& other) noexcept;
  PackedEventQueue& operator=(PackedEventQueue&& other) noexcept;
  PackedEventQueue(const PackedEventQueue&) = delete;
  PackedEventQueue& operator=(const PackedEventQueue&) = delete;

  // Appends `e`, taking over its heap payload (if it owns one).
  void Push(const Event& e);
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // The oldest event, decoded. Valid until the next Pop/Sort; the caller may Release() it.
  Event& front() { return head_; }
  const Event& front() const { return head_; }
  // Drops the oldest event (without releasing its payload: front() hands that to the caller).
  void Pop();
  // Reorders the queue's events by `less` (a strict weak order), e.g. when they were pushed
  // out of timestamp order. Decodes every event once: costs 48 bytes per event meanwhile.
  void Sort(const std::function<bool(const Event&, const Event&)>& less);
  // Bytes held by the encoded events (chunk capacity), for tests and reports.
  size_t memory_bytes() const;

 private:
  struct Chunk {
    std::unique_ptr<uint8_t[]> bytes;
    uint32_t used = 0;
    uint32_t capacity = 0;
  };
  // The fields of the newest event pushed, which the next one is encoded against.
  struct Previous {
    int64_t ts = 0;
    uint32_t seq = 0;
    int32_t pid = -1;
    uint16_t cpu = 0;
    uint8_t machine = 0;
    void Take(const Event& e) {
      ts = e.ts;
      seq = e.seq;
      pid = e.pid;
      cpu = e.cpu;
      machine = e.machine;
    }
  };

  uint8_t* ReserveForOneEvent();
  void DecodeNextIntoHead();
  void Clear();  // forgets every event without releasing payloads

  std::vector<Chunk> chunks_;
  size_t read_chunk_ = 0;    // the chunk the next encoded event is read from
  uint32_t read_offset_ = 0;
  Previous written_;
  // The oldest event, decoded; the next encoded event is relative to it.
  Event head_;
  size_t size_ = 0;          // events in the queue, head included
};

}  // namespace tw
