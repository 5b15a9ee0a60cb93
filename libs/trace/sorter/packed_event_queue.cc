#include "libs/trace/sorter/packed_event_queue.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "libs/trace/sorter/nonzero_bytes.h"

namespace tw {
namespace {

// The payload union: the event's tail.
constexpr size_t kUnionOffset = offsetof(Event, payload);
constexpr size_t kUnionBytes = sizeof(Event) - kUnionOffset;
static_assert(kUnionBytes == nonzero_bytes::kBytes, "the byte mask covers the whole union");

// An encoded event: type, flags, then varints (ts delta, seq delta, pid and cpu when they
// changed), the machine byte when it changed (multi-machine traces only), then the union's
// nonzero-byte mask (3 bytes) and its nonzero bytes.
enum Flags : uint8_t {
  kCompact = 1 << 0,
  kFtraceRow = 1 << 1,
  kOwnsPayload = 1 << 2,
  kPidChanged = 1 << 3,
  kCpuChanged = 1 << 4,
  kMachineChanged = 1 << 5,
  kFromFtrace = 1 << 6,
};
constexpr uint32_t kMaxEncodedBytes = 2 + 10 + 10 + 10 + 3 + 1 + 3 + kUnionBytes;

// Chunks start small (most sequence queues hold a handful of events) and double up to a size
// that the allocator serves from its heap, where freed chunks are reused by table columns.
constexpr uint32_t kFirstChunkBytes = 256;
constexpr uint32_t kLargestChunkBytes = 64 << 10;

uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t UnZigZag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}
// Differences wrap around in uint64 so that any two int64 values round-trip.
int64_t Delta(int64_t to, int64_t from) {
  return static_cast<int64_t>(static_cast<uint64_t>(to) - static_cast<uint64_t>(from));
}
int64_t AddDelta(int64_t from, int64_t delta) {
  return static_cast<int64_t>(static_cast<uint64_t>(from) + static_cast<uint64_t>(delta));
}

uint8_t* PutVarint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v) | 0x80;
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}
const uint8_t* GetVarint(const uint8_t* p, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t b = *p++;
    v |= static_cast<uint64_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) break;
  }
  *out = v;
  return p;
}

}  // namespace

PackedEventQueue::~PackedEventQueue() {
  while (!empty()) {
    front().Release();
    Pop();
  }
}

PackedEventQueue::PackedEventQueue(PackedEventQueue&& other) noexcept { *this = std::move(other); }

PackedEventQueue& PackedEventQueue::operator=(PackedEventQueue&& other) noexcept {
  if (this == &other) return *this;
  while (!empty()) {
    front().Release();
    Pop();
  }
  chunks_ = std::move(other.chunks_);
  read_chunk_ = other.read_chunk_;
  read_offset_ = other.read_offset_;
  written_ = other.written_;
  head_ = other.head_;
  size_ = other.size_;
  other.Clear();
  other.size_ = 0;
  return *this;
}

uint8_t* PackedEventQueue::ReserveForOneEvent() {
  if (chunks_.empty() || chunks_.back().capacity - chunks_.back().used < kMaxEncodedBytes) {
    const uint32_t capacity =
        chunks_.empty() ? kFirstChunkBytes
                        : std::min(kLargestChunkBytes, chunks_.back().capacity * 2);
    Chunk fresh;
    fresh.bytes.reset(new uint8_t[capacity + nonzero_bytes::kReadSlack]);
    fresh.capacity = capacity;
    chunks_.push_back(std::move(fresh));
  }
  Chunk& c = chunks_.back();
  return c.bytes.get() + c.used;
}

void PackedEventQueue::Push(const Event& e) {
  if (size_++ == 0) {
    head_ = e;
    written_.Take(e);
    return;
  }
  uint8_t* const start = ReserveForOneEvent();
  uint8_t* p = start;
  *p++ = static_cast<uint8_t>(e.type);
  uint8_t* const flags = p++;
  *flags = (e.compact ? kCompact : 0) | (e.ftrace_row ? kFtraceRow : 0) |
           (e.owns_payload ? kOwnsPayload : 0) | (e.from_ftrace ? kFromFtrace : 0);
  p = PutVarint(p, ZigZag(Delta(e.ts, written_.ts)));
  p = PutVarint(p, ZigZag(static_cast<int64_t>(e.seq) - static_cast<int64_t>(written_.seq)));
  if (e.pid != written_.pid) {
    *flags |= kPidChanged;
    p = PutVarint(p, ZigZag(e.pid));
  }
  if (e.cpu != written_.cpu) {
    *flags |= kCpuChanged;
    p = PutVarint(p, e.cpu);
  }
  if (e.machine != written_.machine) {
    *flags |= kMachineChanged;
    *p++ = e.machine;
  }
  const uint8_t* u = reinterpret_cast<const uint8_t*>(&e) + kUnionOffset;
  uint8_t* const mask = p;
  p += 3;
  uint32_t bits = 0;
  p += nonzero_bytes::Pack(u, p, &bits);
  mask[0] = static_cast<uint8_t>(bits);
  mask[1] = static_cast<uint8_t>(bits >> 8);
  mask[2] = static_cast<uint8_t>(bits >> 16);
  // Unpacking reads a little past an event's bytes: make those bytes defined until the next
  // event overwrites them.
  std::memset(p, 0, nonzero_bytes::kReadSlack);
  chunks_.back().used += static_cast<uint32_t>(p - start);
  written_.Take(e);
}

void PackedEventQueue::DecodeNextIntoHead() {
  if (read_offset_ == chunks_[read_chunk_].used) {
    // Every event of this chunk is read: its memory can go to whoever needs it next.
    chunks_[read_chunk_] = Chunk();
    ++read_chunk_;
    read_offset_ = 0;
    if (read_chunk_ >= 64 && read_chunk_ * 2 >= chunks_.size()) {
      chunks_.erase(chunks_.begin(), chunks_.begin() + static_cast<ptrdiff_t>(read_chunk_));
      read_chunk_ = 0;
    }
  }
  const uint8_t* const start = chunks_[read_chunk_].bytes.get() + read_offset_;
  // The merge reads a couple of dozen queues in turn while the trackers append to as many
  // columns: more sequential streams than the hardware prefetcher follows. Ask for the bytes a
  // few events ahead (a prefetch past the chunk's end is harmless).
  __builtin_prefetch(start + 256);
  const uint8_t* p = start;
  Event& e = head_;
  e.type = static_cast<EventType>(*p++);
  const uint8_t flags = *p++;
  e.compact = (flags & kCompact) ? 1 : 0;
  e.ftrace_row = (flags & kFtraceRow) ? 1 : 0;
  e.owns_payload = (flags & kOwnsPayload) ? 1 : 0;
  e.from_ftrace = (flags & kFromFtrace) ? 1 : 0;
  uint64_t v;
  p = GetVarint(p, &v);
  e.ts = AddDelta(e.ts, UnZigZag(v));
  p = GetVarint(p, &v);
  e.seq = static_cast<uint32_t>(static_cast<int64_t>(e.seq) + UnZigZag(v));
  if (flags & kPidChanged) {
    p = GetVarint(p, &v);
    e.pid = static_cast<int32_t>(UnZigZag(v));
  }
  if (flags & kCpuChanged) {
    p = GetVarint(p, &v);
    e.cpu = static_cast<uint16_t>(v);
  }
  if (flags & kMachineChanged) e.machine = *p++;
  const uint32_t bits = p[0] | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16);
  p += 3;
  p += nonzero_bytes::Unpack(p, bits, reinterpret_cast<uint8_t*>(&e) + kUnionOffset);
  read_offset_ += static_cast<uint32_t>(p - start);
}

void PackedEventQueue::Pop() {
  if (size_ == 0) return;
  if (--size_ == 0) {
    Clear();
    return;
  }
  DecodeNextIntoHead();
}

void PackedEventQueue::Clear() {
  std::vector<Chunk>().swap(chunks_);
  read_chunk_ = 0;
  read_offset_ = 0;
}

void PackedEventQueue::Sort(const std::function<bool(const Event&, const Event&)>& less) {
  std::vector<Event> events;
  events.reserve(size_);
  while (!empty()) {
    events.push_back(front());
    Pop();
  }
  std::sort(events.begin(), events.end(), less);
  for (const Event& e : events) Push(e);
}

size_t PackedEventQueue::memory_bytes() const {
  size_t total = chunks_.capacity() * sizeof(Chunk);
  for (const Chunk& c : chunks_) total += c.capacity;
  return total;
}

}  // namespace tw
