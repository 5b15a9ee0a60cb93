#include "libs/trace/storage/string_pool.h"

#include <cstring>

namespace tw {
namespace {
constexpr size_t kBlockSize = 256 * 1024;
}

StringPool::StringPool() { strings_.emplace_back(); }

char* StringPool::Allocate(size_t n) {
  if (n > kBlockSize / 4) {
    // Large strings get their own block so they do not waste the shared one.
    blocks_.emplace_back(new char[n]);
    bytes_ += n;
    char* p = blocks_.back().get();
    // Keep the current shared block the last one.
    if (blocks_.size() > 1) std::swap(blocks_[blocks_.size() - 1], blocks_[blocks_.size() - 2]);
    return p;
  }
  if (blocks_.empty() || block_used_ + n > block_size_) {
    blocks_.emplace_back(new char[kBlockSize]);
    block_size_ = kBlockSize;
    block_used_ = 0;
    bytes_ += kBlockSize;
  }
  char* p = blocks_.back().get() + block_used_;
  block_used_ += n;
  return p;
}

StringId StringPool::Intern(std::string_view s) {
  auto it = index_.find(s);
  if (it != index_.end()) return it->second;
  char* p = s.empty() ? nullptr : Allocate(s.size());
  if (p) std::memcpy(p, s.data(), s.size());
  std::string_view stored(p ? p : "", s.size());
  const StringId id = static_cast<StringId>(strings_.size());
  strings_.push_back(stored);
  index_.emplace(stored, id);
  return id;
}

StringId StringPool::Find(std::string_view s) const {
  auto it = index_.find(s);
  return it == index_.end() ? kNullStringId : it->second;
}

size_t StringPool::memory_bytes() const {
  return bytes_ + strings_.capacity() * sizeof(std::string_view) +
         index_.capacity() * (sizeof(std::string_view) + sizeof(StringId) + 1);
}

}  // namespace tw
