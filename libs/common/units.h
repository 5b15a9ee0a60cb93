#pragma once
// Human-readable formatting of nanosecond durations and byte counts (int64 in, text out).

#include <cstdint>
#include <string>

namespace tw {

// "1.234 s", "12.5 ms", "830 us", "42 ns".
std::string FormatDurationNs(int64_t ns);
// "1.5 MiB", "312 KiB", "17 B".
std::string FormatBytes(int64_t bytes);

}  // namespace tw
