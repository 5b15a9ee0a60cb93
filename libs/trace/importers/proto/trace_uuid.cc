#include "libs/trace/importers/proto/trace_uuid.h"

#include <cinttypes>
#include <cstdio>

namespace tw {

std::string FormatTraceUuid(int64_t msb, int64_t lsb) {
  char hex[33];
  std::snprintf(hex, sizeof(hex), "%016" PRIx64 "%016" PRIx64, static_cast<uint64_t>(msb),
                static_cast<uint64_t>(lsb));
  const std::string_view h(hex, 32);
  std::string out;
  out.reserve(36);
  out.append(h.substr(0, 8)).append("-");
  out.append(h.substr(8, 4)).append("-");
  out.append(h.substr(12, 4)).append("-");
  out.append(h.substr(16, 4)).append("-");
  out.append(h.substr(20, 12));
  return out;
}

std::string TraceUuidFromFilePrefix(std::string_view first_bytes) {
  constexpr size_t kHashedBytes = 4096;
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a 64 offset basis
  for (size_t i = 0; i < first_bytes.size() && i < kHashedBytes; ++i) {
    hash ^= static_cast<uint8_t>(first_bytes[i]);
    hash *= 0x100000001b3ull;  // FNV-1a 64 prime
  }
  return FormatTraceUuid(0, static_cast<int64_t>(hash));
}

}  // namespace tw
