#pragma once
// An append-only vector of integers stored in fixed-size chunks, each chunk in the narrowest
// width that holds its values. Most trace columns use far fewer bits than their type: a CPU
// number, a thread id or an interned string id in a trace with a few thousand threads and
// strings, timestamps within a second of each other inside one chunk, flags that are always 0.
// A chunk stores each value as its unsigned distance from the chunk's `base` in 0, 1, 2 or 4
// bytes (0: every value is base), or the raw value in 8 bytes. When a value falls outside what
// the chunk can hold, the chunk is re-encoded once with a base and width that cover every value
// it has seen, the base centred in the room the width leaves, so a drifting sequence re-encodes
// only a few times; the width never shrinks. Reading is a switch on the chunk's width. Like
// a chunked vector, growth never copies the whole vector, and the first chunk grows by doubling so
// the many small tables of a trace stay small.
//
// A few outliers would otherwise double a chunk to raw 8-byte values: durations are mostly
// milliseconds, but a thread asleep for more than 4.3 s has one that needs more than 32 bits.
// So a value that would force a chunk to 8 bytes is kept aside instead, as an exception (its
// offset and value, in a small sorted list of the chunk) with its slot set to all ones, up to
// 1/64 of the chunk's values; only past that does the chunk go to 8 bytes. Exceptions live in
// 4-byte chunks only (a narrower chunk that needs one is first widened to 4 bytes). Load switches
// on a per-chunk read mode, so a chunk without exceptions reads exactly as before; one with
// some looks further only at an all-ones slot (all ones is also a valid in-band distance: the
// list decides).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace tw {

template <typename T, uint32_t kShift = 14>
class PackedIntVector {
  static_assert(std::is_integral_v<T> && sizeof(T) <= 8);

 public:
  static constexpr uint32_t kChunkShift = kShift;
  static constexpr uint32_t kChunk = 1u << kShift;
  static constexpr uint32_t kMask = kChunk - 1;

  // Appends run once per column per row on the import's hot path, so the common case is inline
  // and branch-light: a value landing inside the last chunk (not its first cell, nor the cell
  // where the first chunk grows) that the chunk's width and base already hold. Anything else
  // takes PushBackSlow; both leave the same min/max, width, base and bytes.
  void push_back(T v) {
    const int64_t value = static_cast<int64_t>(v);
    const uint32_t at = size_ & kMask;
    // Chunks after the first start full size, and the first holds kChunk cells before a second
    // exists, so `at == first_capacity_` can only stop the first chunk.
    if (at != 0 && at != first_capacity_) {
      Chunk& c = chunks_.back();
      if (HoldsWithoutReencoding(c, value)) {
        if (value < c.min) c.min = value;
        if (value > c.max) c.max = value;
        Store(c, at, value);
        ++size_;
        return;
      }
    }
    PushBackSlow(value);
  }
  T operator[](uint32_t i) const {
    return static_cast<T>(Load(chunks_[i >> kShift], i & kMask));
  }
  void Set(uint32_t i, T v) {
    Put(chunks_[i >> kShift], i & kMask, static_cast<int64_t>(v), Count(i >> kShift));
  }
  // The address of element i's bytes, for prefetching (nullptr when the chunk stores none).
  const void* address(uint32_t i) const {
    const Chunk& c = chunks_[i >> kShift];
    return c.data ? c.data.get() + static_cast<size_t>(i & kMask) * c.width : nullptr;
  }
  uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t memory_bytes() const {
    size_t total = chunks_.capacity() * sizeof(Chunk);
    for (size_t k = 0; k < chunks_.size(); ++k) {
      total += size_t{Capacity(k)} * chunks_[k].width;
      if (chunks_[k].exceptions) total += chunks_[k].exceptions->capacity() * sizeof(Exception);
    }
    return total;
  }
  // Bytes per value in chunk k (0, 1, 2, 4 or 8): for tests and memory reports.
  uint32_t chunk_width(uint32_t k) const { return chunks_[k].width; }
  // Values of chunk k kept aside as exceptions: for tests.
  uint32_t chunk_exceptions(uint32_t k) const {
    const auto& e = chunks_[k].exceptions;
    return e ? static_cast<uint32_t>(e->size()) : 0;
  }

 private:
  struct Exception {
    uint32_t at;  // offset in the chunk
    int64_t value;
  };
  using Exceptions = std::vector<Exception>;  // sorted by offset
  struct Chunk {
    int64_t base = 0;
    int64_t min = 0;  // the smallest and largest value stored in the slots (not exceptions)
    int64_t max = 0;
    uint8_t width = 0;  // 0: every value is base; 1/2/4: value - base, unsigned; 8: raw value
    // What Load switches on: the width, or kWidth4WithExceptions while a 4-byte chunk has
    // exceptions, so a chunk without any reads exactly as if exceptions did not exist.
    uint8_t read_as = 0;
    std::unique_ptr<uint8_t[]> data;
    std::unique_ptr<Exceptions> exceptions;  // null unless the chunk has one; only at width 4
  };

  static constexpr uint8_t kWidth4WithExceptions = 3;  // not a width

  static constexpr uint64_t MaxOffset(uint8_t width) {
    return width == 0 ? 0 : width == 1 ? 0xFF : width == 2 ? 0xFFFF : 0xFFFFFFFFull;
  }
  static bool Fits(const Chunk& c, int64_t v) {
    if (c.width == 8) return true;
    const __int128 d = static_cast<__int128>(v) - c.base;
    return d >= 0 && d <= static_cast<__int128>(MaxOffset(c.width));
  }
  // The narrowest width whose offsets span [lo, hi].
  static uint8_t WidthFor(int64_t lo, int64_t hi) {
    const unsigned __int128 range = static_cast<__int128>(hi) - lo;
    for (uint8_t w : {uint8_t{1}, uint8_t{2}, uint8_t{4}}) {
      if (range <= MaxOffset(w)) return w;
    }
    return 8;
  }

  uint32_t Capacity(size_t k) const { return k == 0 ? first_capacity_ : kChunk; }
  // Values stored so far in chunk k.
  uint32_t Count(size_t k) const {
    const uint32_t before = static_cast<uint32_t>(k) << kShift;
    return size_ - before >= kChunk ? kChunk : size_ - before;
  }

  // The distance stored in slot `at` of a chunk of width 1, 2 or 4.
  static uint64_t Slot(const Chunk& c, uint32_t at) {
    const uint8_t* p = c.data.get();
    switch (c.width) {
      case 1: return p[at];
      case 2: return reinterpret_cast<const uint16_t*>(p)[at];
      default: return reinterpret_cast<const uint32_t*>(p)[at];
    }
  }
  static int64_t Load(const Chunk& c, uint32_t at) {
    const uint8_t* p = c.data.get();
    const uint64_t base = static_cast<uint64_t>(c.base);
    // Four cases and a default: GCC keeps this a chain of compares (a fifth case becomes a jump
    // table, which costs a tight scan about half its speed).
    switch (c.read_as) {
      case 0: return c.base;
      case 1: return static_cast<int64_t>(base + p[at]);
      case 2: return static_cast<int64_t>(base + reinterpret_cast<const uint16_t*>(p)[at]);
      case 4: return static_cast<int64_t>(base + reinterpret_cast<const uint32_t*>(p)[at]);
      default: {
        if (c.read_as == 8) return reinterpret_cast<const int64_t*>(p)[at];
        // A 4-byte chunk with exceptions: only an all-ones slot can be one.
        const uint32_t d = reinterpret_cast<const uint32_t*>(p)[at];
        if (__builtin_expect(d == 0xFFFFFFFFu, 0)) return LoadAllOnes(c, at);
        return static_cast<int64_t>(base + d);
      }
    }
  }
  // An all-ones slot of a chunk with exceptions: all ones is also a valid in-band distance, so
  // the list, not the slot, decides.
  __attribute__((noinline)) static int64_t LoadAllOnes(const Chunk& c, uint32_t at) {
    if (const Exception* e = FindException(c, at)) return e->value;
    return static_cast<int64_t>(static_cast<uint64_t>(c.base) + 0xFFFFFFFFull);
  }
  static const Exception* FindException(const Chunk& c, uint32_t at) {
    const Exceptions& list = *c.exceptions;
    const auto it = std::lower_bound(list.begin(), list.end(), at,
                                     [](const Exception& e, uint32_t a) { return e.at < a; });
    return it != list.end() && it->at == at ? &*it : nullptr;
  }
  // Writes v at `at` of a chunk that can hold it.
  static void Store(Chunk& c, uint32_t at, int64_t v) {
    const uint64_t d = static_cast<uint64_t>(v) - static_cast<uint64_t>(c.base);
    StoreOffset(c, at, c.width == 8 ? static_cast<uint64_t>(v) : d);
  }
  static void StoreOffset(Chunk& c, uint32_t at, uint64_t d) {
    uint8_t* p = c.data.get();
    switch (c.width) {
      case 0: return;
      case 1: p[at] = static_cast<uint8_t>(d); return;
      case 2: reinterpret_cast<uint16_t*>(p)[at] = static_cast<uint16_t>(d); return;
      case 4: reinterpret_cast<uint32_t*>(p)[at] = static_cast<uint32_t>(d); return;
      default: reinterpret_cast<uint64_t*>(p)[at] = d; return;
    }
  }

  // Fits(c, v) without 128-bit arithmetic: when v >= base, the unsigned difference is the
  // exact distance.
  static bool HoldsWithoutReencoding(const Chunk& c, int64_t v) {
    if (c.width == 8) return true;
    return v >= c.base &&
           static_cast<uint64_t>(v) - static_cast<uint64_t>(c.base) <= MaxOffset(c.width);
  }

  // push_back's other cases: a new chunk, the first chunk growing, or a value that re-encodes.
  __attribute__((noinline)) void PushBackSlow(int64_t value) {
    const uint32_t at = size_ & kMask;
    if (at == 0 && (size_ != 0 || chunks_.empty())) {
      chunks_.emplace_back();
      Chunk& fresh = chunks_.back();
      fresh.base = fresh.min = fresh.max = value;
    }
    Chunk& c = chunks_.back();
    if (chunks_.size() == 1 && at == first_capacity_) GrowFirstChunk(c);
    Put(c, at, value, at);
    ++size_;
  }

  // Writes v at `at` of chunk c (chunk number k), whose first `count` values are set.
  void Put(Chunk& c, uint32_t at, int64_t v, uint32_t count) {
    if (c.exceptions) DropException(c, at);  // a Set over a value kept aside
    if (!Fits(c, v)) {
      const int64_t lo = v < c.min ? v : c.min;
      const int64_t hi = v > c.max ? v : c.max;
      const size_t k = static_cast<size_t>(&c - chunks_.data());
      if (WidthFor(lo, hi) == 8 && ExceptionCount(c) < Capacity(k) / 64) {
        if (c.width < 4) Reencode(c, count, 4);  // exceptions live in 4-byte chunks only
        AddException(c, at, v);
        return;
      }
      c.min = lo;
      c.max = hi;
      Reencode(c, count);
    } else {
      if (v < c.min) c.min = v;
      if (v > c.max) c.max = v;
    }
    Store(c, at, v);
  }

  static uint32_t ExceptionCount(const Chunk& c) {
    return c.exceptions ? static_cast<uint32_t>(c.exceptions->size()) : 0;
  }
  static void AddException(Chunk& c, uint32_t at, int64_t v) {
    if (!c.exceptions) c.exceptions = std::make_unique<Exceptions>();
    Exceptions& list = *c.exceptions;
    // Appends come in offset order; only a Set lands in the middle.
    auto it = list.end();
    if (!list.empty() && list.back().at > at) {
      it = std::lower_bound(list.begin(), list.end(), at,
                            [](const Exception& e, uint32_t a) { return e.at < a; });
    }
    list.insert(it, Exception{at, v});
    c.read_as = kWidth4WithExceptions;
    StoreOffset(c, at, MaxOffset(c.width));
  }
  static void DropException(Chunk& c, uint32_t at) {
    Exceptions& list = *c.exceptions;
    const auto it = std::lower_bound(list.begin(), list.end(), at,
                                     [](const Exception& e, uint32_t a) { return e.at < a; });
    if (it != list.end() && it->at == at) list.erase(it);
    if (list.empty()) {
      c.exceptions.reset();
      c.read_as = c.width;
    }
  }

  // Re-encodes chunk c, whose first `count` values are set, with the narrowest width that
  // holds [c.min, c.max] and the base centred in the room that width leaves. Exceptions that
  // the new width holds move into their slots; at 8 bytes all of them do.
  void Reencode(Chunk& c, uint32_t count, uint8_t min_width = 0) {
    uint8_t width = WidthFor(c.min, c.max);
    if (width < c.width) width = c.width;
    if (width < min_width) width = min_width;
    int64_t base = c.min;
    if (width < 8) {
      const uint64_t range = static_cast<uint64_t>(static_cast<__int128>(c.max) - c.min);
      const __int128 slack = static_cast<__int128>(MaxOffset(width) - range);
      const __int128 centred = static_cast<__int128>(c.min) - slack / 2;
      base = centred < INT64_MIN ? INT64_MIN : static_cast<int64_t>(centred);
    }
    const size_t k = static_cast<size_t>(&c - chunks_.data());
    Chunk wider;
    wider.base = base;
    wider.min = c.min;
    wider.max = c.max;
    wider.width = width;
    wider.read_as = width;
    wider.data.reset(new uint8_t[size_t{Capacity(k)} * width]);
    const Exceptions* old = c.exceptions.get();
    size_t next = 0;  // the next old exception, by offset
    for (uint32_t i = 0; i < count; ++i) {
      if (old && next < old->size() && (*old)[next].at == i) {
        const int64_t v = (*old)[next++].value;
        if (Fits(wider, v)) {
          if (v < wider.min) wider.min = v;
          if (v > wider.max) wider.max = v;
          Store(wider, i, v);
        } else {
          AddException(wider, i, v);
        }
        continue;
      }
      Store(wider, i, InBand(c, i));
    }
    c = std::move(wider);
  }
  // The value slot `at` holds, read as an in-band value (for a chunk below 8 bytes, whose
  // exceptions the caller handles).
  static int64_t InBand(const Chunk& c, uint32_t at) {
    if (c.width == 0) return c.base;
    return static_cast<int64_t>(static_cast<uint64_t>(c.base) + Slot(c, at));
  }

  void GrowFirstChunk(Chunk& c) {
    const uint32_t capacity = first_capacity_ == 0 ? 16 : first_capacity_ * 2;
    if (c.width != 0) {
      std::unique_ptr<uint8_t[]> grown(new uint8_t[size_t{capacity} * c.width]);
      std::memcpy(grown.get(), c.data.get(), size_t{first_capacity_} * c.width);
      c.data = std::move(grown);
    }
    first_capacity_ = capacity;
  }

  uint32_t first_capacity_ = 0;
  std::vector<Chunk> chunks_;
  uint32_t size_ = 0;
};

}  // namespace tw

namespace tw {

// An append-only vector of doubles on a PackedIntVector: a chunk whose values are all whole
// numbers (counter values usually are: frequencies, idle states, byte counts) stores them as
// packed integers; the first fractional value turns its chunk into raw 8-byte doubles.
class PackedDoubleVector {
 public:
  void push_back(double v) {
    const uint32_t k = ints_.size() >> Ints::kChunkShift;
    if (k == raw_.size()) raw_.push_back(0);
    int64_t whole;
    if (!raw_[k] && AsWhole(v, &whole)) {
      ints_.push_back(whole);
      return;
    }
    if (!raw_[k]) MakeRaw(k);
    ints_.push_back(Bits(v));
  }
  double operator[](uint32_t i) const {
    const int64_t x = ints_[i];
    return raw_[i >> Ints::kChunkShift] ? FromBits(x) : static_cast<double>(x);
  }
  void Set(uint32_t i, double v) {
    const uint32_t k = i >> Ints::kChunkShift;
    int64_t whole;
    if (!raw_[k] && AsWhole(v, &whole)) {
      ints_.Set(i, whole);
      return;
    }
    if (!raw_[k]) MakeRaw(k);
    ints_.Set(i, Bits(v));
  }
  const void* address(uint32_t i) const { return ints_.address(i); }
  uint32_t size() const { return ints_.size(); }
  size_t memory_bytes() const { return ints_.memory_bytes() + raw_.capacity(); }

 private:
  using Ints = PackedIntVector<int64_t>;

  // Whole numbers that convert to int64 and back exactly (not -0.0, NaN or infinities).
  static bool AsWhole(double v, int64_t* out) {
    constexpr double kLimit = 9007199254740992.0;  // 2^53
    if (!(v >= -kLimit && v <= kLimit)) return false;
    const int64_t whole = static_cast<int64_t>(v);
    if (static_cast<double>(whole) != v || (whole == 0 && std::signbit(v))) return false;
    *out = whole;
    return true;
  }
  static int64_t Bits(double v) {
    int64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  }
  static double FromBits(int64_t b) {
    double v;
    std::memcpy(&v, &b, sizeof v);
    return v;
  }
  void MakeRaw(uint32_t k) {
    const uint32_t begin = k << Ints::kChunkShift;
    const uint32_t end = std::min<uint32_t>(ints_.size(), begin + Ints::kChunk);
    for (uint32_t i = begin; i < end; ++i) ints_.Set(i, Bits(static_cast<double>(ints_[i])));
    raw_[k] = 1;
  }

  Ints ints_;
  std::vector<uint8_t> raw_;  // per chunk: 1 when it holds raw doubles
};

}  // namespace tw
