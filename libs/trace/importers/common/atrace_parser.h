#pragma once
// Parses atrace markers written to trace_marker ("B|pid|name", "E|pid", "C|pid|name|value",
// "S|pid|name|cookie", "F|pid|name|cookie", "I|pid|name", "N|pid|track|name",
// "G|pid|track|name|cookie", "H|pid|track|[name|]cookie"). The pid field is the writer's
// process (tgid); when it is missing or malformed the marker is thread-only (tgid 0).

#include <cstdint>
#include <string_view>

namespace tw {

struct AtraceMarker {
  char phase = 0;
  uint32_t tgid = 0;
  bool has_tgid = false;
  std::string_view name;
  std::string_view track_name;  // N/G/H
  int64_t value = 0;            // counter value or cookie
};

enum class AtraceParseResult { kSuccess, kFailure, kUnsupported };

AtraceParseResult ParseAtraceMarker(std::string_view text, AtraceMarker* out);

}  // namespace tw
