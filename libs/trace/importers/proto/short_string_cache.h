#pragma once
// A small direct-mapped cache in front of the string pool for short strings that repeat, such
// as the comm (task name, at most 15 bytes) every sched_switch and sched_waking carries twice
// or once: a hit compares two words instead of hashing the bytes and probing the pool's map,
// which on a plain-encoded scheduling trace was ~6 % of the import. A miss interns through the
// pool as before, so ids are assigned in the same order as without the cache.

#include <cstdint>
#include <cstring>
#include <string_view>

#include "libs/trace/storage/string_pool.h"

namespace tw {

class ShortStringCache {
 public:
  static constexpr size_t kMaxLength = 16;

  // The pool's id of `s`; `intern` (a callable taking the string_view) is asked on a miss.
  template <typename Intern>
  StringId Get(std::string_view s, Intern&& intern) {
    if (s.size() > kMaxLength) return intern(s);
    uint64_t words[2] = {0, 0};
    std::memcpy(words, s.data(), s.size());
    const uint64_t mixed = (words[0] ^ (words[1] * 0x9E3779B97F4A7C15ull) ^ s.size()) *
                           0xD6E8FEB86659FD93ull;
    Entry& e = entries_[mixed >> (64 - kSlotBits)];
    if (e.id != kNullStringId && e.words[0] == words[0] && e.words[1] == words[1] &&
        e.length == s.size()) {
      return e.id;
    }
    const StringId id = intern(s);
    e = Entry{{words[0], words[1]}, static_cast<uint32_t>(s.size()), id};
    return id;
  }

 private:
  static constexpr int kSlotBits = 9;  // 512 slots, 12 KiB: a trace's comms mostly fit
  struct Entry {
    uint64_t words[2] = {0, 0};  // the bytes, zero-padded
    uint32_t length = 0;
    StringId id = kNullStringId;
  };
  Entry entries_[1u << kSlotBits];
};

}  // namespace tw
