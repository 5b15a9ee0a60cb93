#pragma once
// 64-bit FNV-1a: the hash behind the SQL function HASH, shared with the C++ code that must
// produce the same values (slice_stack_table).

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tw {

class Fnv1a64 {
 public:
  void Update(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) {
      h_ ^= p[i];
      h_ *= 0x100000001b3ULL;
    }
  }
  void Update(std::string_view text) { Update(text.data(), text.size()); }
  int64_t Digest() const { return static_cast<int64_t>(h_); }

  // HASH(text) in SQL.
  static int64_t Of(std::string_view text) {
    Fnv1a64 h;
    h.Update(text);
    return h.Digest();
  }

 private:
  uint64_t h_ = 0xcbf29ce484222325ULL;
};

}  // namespace tw
