#pragma once
// Interns every string of a trace once (thread names, slice names, arg keys, ...). Tables store
// 32-bit ids instead of strings; id 0 is NULL.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace tw {

using StringId = uint32_t;
inline constexpr StringId kNullStringId = 0;

class StringPool {
 public:
  StringPool();
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;

  // Returns the id of `s`, adding it if new. The empty string is a real (non-NULL) string.
  StringId Intern(std::string_view s);
  // Returns the id of `s` if present, else kNullStringId.
  StringId Find(std::string_view s) const;
  // The string of `id`; empty for kNullStringId.
  std::string_view Get(StringId id) const { return strings_[id]; }
  size_t size() const { return strings_.size(); }
  size_t memory_bytes() const;

 private:
  char* Allocate(size_t n);

  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  size_t bytes_ = 0;
  std::vector<std::string_view> strings_;
  absl::flat_hash_map<std::string_view, StringId> index_;
};

}  // namespace tw
