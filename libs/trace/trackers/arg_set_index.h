#pragma once
// The hash → arg_set_id index behind ArgsTracker's de-duplication. A trace with millions of
// distinct arg sets (one per scheduling event on a busy many-thread trace) makes this index the
// largest thing alive at the import's peak besides the tables, so it is built for memory:
//  - a slot is the set's two hashes and its id, 16 bytes, with no separate control bytes;
//  - four slots share a 64-byte bucket (one cache line), probed linearly bucket by bucket, so a
//    lookup usually reads one line even with the table 7/8 full;
//  - it is split into 256 shards by the top bits of the hash, and a shard grows by a quarter
//    (not by doubling) when it is 7/8 full: capacity stays within 1.43x of what is stored, and
//    a growth step copies one small shard, never the whole index at once.
// Sets agreeing on both hashes (96 bits) count as one set: callers hash the set's full content.

#include <cstddef>
#include <cstdint>
#include <memory>

namespace tw {

class ArgSetIndex {
 public:
  // The id stored under (index, check); when there is none, stores `id` under it and returns
  // `id`. `id` must not be UINT32_MAX.
  uint32_t FindOrInsert(uint64_t index, uint32_t check, uint32_t id);

  // Starts loading the bucket a probe for `index` reads first, so a caller with other work to do
  // before FindOrInsert overlaps the cache miss with it.
  void Prefetch(uint64_t index) const {
    const Shard& shard = shards_[index >> (64 - kShardBits)];
    if (shard.buckets) __builtin_prefetch(&shard.buckets[HomeBucket(index, shard.bucket_count)]);
  }

  size_t size() const;
  size_t memory_bytes() const;

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  static constexpr int kShardBits = 8;
  static constexpr uint32_t kSlotsPerBucket = 4;

  struct Slot {
    uint64_t index = 0;
    uint32_t check = 0;
    uint32_t id = kEmpty;
  };
  struct alignas(64) Bucket {
    Slot slots[kSlotsPerBucket];
  };
  struct Shard {
    std::unique_ptr<Bucket[]> buckets;
    uint32_t bucket_count = 0;
    uint32_t size = 0;
  };

  // The bucket a hash starts probing at: the low 32 bits scaled to the shard's bucket count
  // (the top bits chose the shard).
  static uint32_t HomeBucket(uint64_t index, uint32_t bucket_count) {
    return static_cast<uint32_t>((uint64_t{static_cast<uint32_t>(index)} * bucket_count) >> 32);
  }
  // Stores a slot known to be absent into a shard with room for it.
  static void Place(Shard& shard, const Slot& slot);
  static void Grow(Shard& shard);

  Shard shards_[1u << kShardBits];
};

}  // namespace tw
