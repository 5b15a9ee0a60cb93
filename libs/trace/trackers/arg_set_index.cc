#include "libs/trace/trackers/arg_set_index.h"

namespace tw {

uint32_t ArgSetIndex::FindOrInsert(uint64_t index, uint32_t check, uint32_t id) {
  Shard& shard = shards_[index >> (64 - kShardBits)];
  // Grow before probing so the probe below always ends at an empty slot.
  if (uint64_t{shard.size + 1} * 8 > uint64_t{shard.bucket_count} * kSlotsPerBucket * 7) {
    Grow(shard);
  }
  uint32_t b = HomeBucket(index, shard.bucket_count);
  for (;;) {
    Slot* slots = shard.buckets[b].slots;
    for (uint32_t i = 0; i < kSlotsPerBucket; ++i) {
      Slot& s = slots[i];
      // Nothing is ever removed, so the first empty slot ends the probe: the key is absent.
      if (s.id == kEmpty) {
        s = Slot{index, check, id};
        ++shard.size;
        return id;
      }
      if (s.index == index && s.check == check) return s.id;
    }
    if (++b == shard.bucket_count) b = 0;
  }
}

void ArgSetIndex::Place(Shard& shard, const Slot& slot) {
  uint32_t b = HomeBucket(slot.index, shard.bucket_count);
  for (;;) {
    for (Slot& s : shard.buckets[b].slots) {
      if (s.id == kEmpty) {
        s = slot;
        return;
      }
    }
    if (++b == shard.bucket_count) b = 0;
  }
}

void ArgSetIndex::Grow(Shard& shard) {
  const uint32_t old_count = shard.bucket_count;
  const uint32_t new_count = old_count < 4 ? old_count + 1 : old_count + old_count / 4;
  std::unique_ptr<Bucket[]> old = std::move(shard.buckets);
  shard.buckets.reset(new Bucket[new_count]);
  shard.bucket_count = new_count;
  for (uint32_t b = 0; b < old_count; ++b) {
    for (const Slot& s : old[b].slots) {
      if (s.id != kEmpty) Place(shard, s);
    }
  }
}

size_t ArgSetIndex::size() const {
  size_t n = 0;
  for (const Shard& s : shards_) n += s.size;
  return n;
}

size_t ArgSetIndex::memory_bytes() const {
  size_t bytes = sizeof(*this);
  for (const Shard& s : shards_) bytes += size_t{s.bucket_count} * sizeof(Bucket);
  return bytes;
}

}  // namespace tw
