#pragma once
// Reads this process's memory use from /proc, for `tracewise info` and the import benchmark.

#include <cstdint>

namespace tw {

// Peak resident set size (VmHWM) in bytes, or 0 when unavailable.
int64_t PeakRssBytes();
// Current resident set size (VmRSS) in bytes, or 0 when unavailable.
int64_t CurrentRssBytes();
// Resets the peak RSS counter (writes /proc/self/clear_refs); returns false if not permitted.
bool ResetPeakRss();

}  // namespace tw
