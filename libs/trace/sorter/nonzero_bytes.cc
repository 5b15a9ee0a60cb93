#include "libs/trace/sorter/nonzero_bytes.h"

#include <array>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TW_NONZERO_BYTES_SSSE3 1
#endif

namespace tw::nonzero_bytes {
namespace {

size_t PackScalar(const uint8_t* in, uint8_t* out, uint32_t* mask) {
  uint32_t bits = 0;
  size_t n = 0;
  for (uint32_t i = 0; i < kBytes; ++i) {
    if (in[i] != 0) {
      bits |= 1u << i;
      out[n++] = in[i];
    }
  }
  *mask = bits;
  return n;
}

size_t UnpackScalar(const uint8_t* in, uint32_t mask, uint8_t* out) {
  std::memset(out, 0, kBytes);
  size_t n = 0;
  for (uint32_t bits = mask; bits != 0; bits &= bits - 1) out[__builtin_ctz(bits)] = in[n++];
  return n;
}

#if TW_NONZERO_BYTES_SSSE3

// For each 8-bit mask, shuffle controls for one 8-byte group: kCompress gathers the masked
// bytes to the front, kExpand spreads packed bytes to the masked positions (0x80 writes a zero).
struct ShuffleTables {
  std::array<std::array<uint8_t, 8>, 256> compress{};
  std::array<std::array<uint8_t, 8>, 256> expand{};
  std::array<uint8_t, 256> count{};
};

constexpr ShuffleTables MakeShuffleTables() {
  ShuffleTables t;
  for (uint32_t m = 0; m < 256; ++m) {
    uint8_t n = 0;
    for (uint8_t j = 0; j < 8; ++j) {
      t.compress[m][j] = 0x80;
      t.expand[m][j] = 0x80;
    }
    for (uint8_t j = 0; j < 8; ++j) {
      if (m & (1u << j)) {
        t.compress[m][n] = j;
        t.expand[m][j] = n;
        ++n;
      }
    }
    t.count[m] = n;
  }
  return t;
}

constexpr ShuffleTables kTables = MakeShuffleTables();

__attribute__((target("ssse3"))) __m128i Control(const std::array<uint8_t, 8>& c) {
  return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(c.data()));
}

__attribute__((target("ssse3"))) size_t PackSsse3(const uint8_t* in, uint8_t* out,
                                                  uint32_t* mask) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
  const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + 16));
  const uint32_t zeros = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, zero))) |
                         static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, zero))) << 16;
  const uint32_t bits = ~zeros & 0xFFFFFFu;
  const __m128i groups[3] = {lo, _mm_srli_si128(lo, 8), hi};
  size_t n = 0;
  for (int g = 0; g < 3; ++g) {
    const uint32_t m = (bits >> (8 * g)) & 0xFF;
    // Writes 8 bytes, of which the first count[m] matter: within `out`'s 24 bytes.
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + n),
                     _mm_shuffle_epi8(groups[g], Control(kTables.compress[m])));
    n += kTables.count[m];
  }
  *mask = bits;
  return n;
}

__attribute__((target("ssse3"))) size_t UnpackSsse3(const uint8_t* in, uint32_t mask,
                                                    uint8_t* out) {
  size_t n = 0;
  for (int g = 0; g < 3; ++g) {
    const uint32_t m = (mask >> (8 * g)) & 0xFF;
    const __m128i packed = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + n));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 8 * g),
                     _mm_shuffle_epi8(packed, Control(kTables.expand[m])));
    n += kTables.count[m];
  }
  return n;
}

// Asked once; cpu_init first because this may run before the runtime's own constructor.
bool DetectSsse3() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("ssse3");
}
const bool kHasSsse3 = DetectSsse3();

#endif

}  // namespace

size_t Pack(const uint8_t* in, uint8_t* out, uint32_t* mask) {
#if TW_NONZERO_BYTES_SSSE3
  if (kHasSsse3) return PackSsse3(in, out, mask);
#endif
  return PackScalar(in, out, mask);
}

size_t Unpack(const uint8_t* in, uint32_t mask, uint8_t* out) {
#if TW_NONZERO_BYTES_SSSE3
  if (kHasSsse3) return UnpackSsse3(in, mask, out);
#endif
  return UnpackScalar(in, mask, out);
}

}  // namespace tw::nonzero_bytes
