#pragma once
// Saturating int64 arithmetic for timestamps decoded from untrusted traces: a producer's
// microsecond value times 1000, or a running sum of deltas, must clamp instead of wrapping
// (wrapping could turn a huge negative time into a plausible positive one).

#include <cstdint>
#include <limits>

namespace tw {

inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_add_overflow(a, b, &out)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return out;
}

inline int64_t SaturatingMultiply(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_mul_overflow(a, b, &out)) {
    return (a < 0) != (b < 0) ? std::numeric_limits<int64_t>::min()
                              : std::numeric_limits<int64_t>::max();
  }
  return out;
}

}  // namespace tw
