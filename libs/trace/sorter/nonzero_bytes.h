#pragma once
// The packed event queue stores an event's 24-byte payload union as a mask of its nonzero bytes
// followed by those bytes: pids, priorities and string ids are small and unused fields zero, so
// a scheduling event's union takes ~6 bytes. Packing and unpacking run once per buffered event;
// a byte-at-a-time loop branches on every byte (which the predictor cannot learn), so on x86
// with SSSE3 each 8-byte group moves with one table-driven shuffle instead.

#include <cstddef>
#include <cstdint>

namespace tw::nonzero_bytes {

constexpr size_t kBytes = 24;
// Unpack may read this many bytes past the packed bytes it consumes.
constexpr size_t kReadSlack = 8;

// Writes the nonzero bytes of `in[0, 24)` to `out` in order and their positions to `*mask`
// (bit i: byte i is nonzero); returns how many it wrote. `out` must have 24 writable bytes.
size_t Pack(const uint8_t* in, uint8_t* out, uint32_t* mask);

// The inverse: fills `out[0, 24)` from the bytes at `in` that `mask` places; returns how many it
// read. `in` must stay readable kReadSlack bytes beyond them.
size_t Unpack(const uint8_t* in, uint32_t mask, uint8_t* out);

}  // namespace tw::nonzero_bytes
