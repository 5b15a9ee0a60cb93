#pragma once
// An append-only vector stored in fixed-size chunks. Columns use it instead of std::vector so
// growing a table never doubles its memory or copies it, which keeps import peak RSS close to
// the data's real size.

#include <cstdint>
#include <memory>
#include <vector>

namespace tw {

template <typename T, uint32_t kShift = 14>
class ChunkedVector {
 public:
  static constexpr uint32_t kChunk = 1u << kShift;
  static constexpr uint32_t kMask = kChunk - 1;

  void push_back(const T& v) {
    if (size_ < kChunk) {
      // The first chunk grows by doubling, so the many small tables of a trace stay small.
      if (size_ == first_capacity_) GrowFirstChunk();
    } else if ((size_ & kMask) == 0) {
      chunks_.emplace_back(new T[kChunk]);
    }
    chunks_.back()[size_ & kMask] = v;
    ++size_;
  }
  const T& operator[](uint32_t i) const { return chunks_[i >> kShift][i & kMask]; }
  T& operator[](uint32_t i) { return chunks_[i >> kShift][i & kMask]; }
  uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t memory_bytes() const {
    const size_t full = chunks_.empty() ? 0 : (chunks_.size() - 1) * kChunk;
    return (full + first_capacity_) * sizeof(T) + chunks_.capacity() * sizeof(void*);
  }

 private:
  void GrowFirstChunk() {
    const uint32_t capacity = first_capacity_ == 0 ? 16 : first_capacity_ * 2;
    std::unique_ptr<T[]> grown(new T[capacity]);
    for (uint32_t i = 0; i < size_; ++i) grown[i] = chunks_[0][i];
    if (chunks_.empty()) {
      chunks_.push_back(std::move(grown));
    } else {
      chunks_[0] = std::move(grown);
    }
    first_capacity_ = capacity;
  }

  uint32_t first_capacity_ = 0;
  std::vector<std::unique_ptr<T[]>> chunks_;
  uint32_t size_ = 0;
};

}  // namespace tw
