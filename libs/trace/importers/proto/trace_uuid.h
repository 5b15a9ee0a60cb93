#pragma once
// Trace UUIDs as trace_processor prints them in metadata.trace_uuid: the 128-bit value with the
// most significant half first, as 8-4-4-4-12 lowercase hex digits.

#include <cstdint>
#include <string>
#include <string_view>

namespace tw {

std::string FormatTraceUuid(int64_t msb, int64_t lsb);

// The UUID trace_processor derives for a trace that carries none: the 64-bit FNV-1a hash of its
// first 4096 bytes (as stored on disk) in the low half, zero in the high half.
std::string TraceUuidFromFilePrefix(std::string_view first_bytes);

}  // namespace tw
