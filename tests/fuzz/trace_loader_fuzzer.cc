// libFuzzer target over the whole import path: format detection, gzip, packet splitting,
// every packet decoder, sorting, trackers and opening the SQL layer. Any input must either load
// or fail with a status: never crash, hang or allocate without bound.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "libs/trace/trace_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tw::LoadOptions options;
  options.max_packet_bytes = 1 << 20;
  auto trace = tw::LoadTraceBytes(
      std::string_view(reinterpret_cast<const char*>(data), size), options);
  if (trace.ok()) {
    // Touch the derived tables so their rows are read back through SQL too.
    (void)(*trace)->Query("SELECT COUNT(*), SUM(dur) FROM slice");
    (void)(*trace)->Query("SELECT COUNT(*), SUM(dur) FROM thread_state");
  }
  return 0;
}
