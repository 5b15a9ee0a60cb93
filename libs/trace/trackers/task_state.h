#pragma once
// Converts a kernel task state (sched_switch prev_state) into the letters trace_processor shows
// in sched.end_state and thread_state.state ("R", "R+", "S", "D", "DK", "I", ...). The bit layout
// changed in kernel 4.14 (and the preemption bit in 4.8), so the kernel version matters; without
// one, 4.4 is assumed as trace_processor does.

#include <cstdint>
#include <optional>
#include <string>

namespace tw {

struct KernelVersion {
  int major = 0;
  int minor = 0;
  bool AtLeast(int maj, int min) const { return major > maj || (major == maj && minor >= min); }
};

// Parses "5.10.43-android12-..." → {5, 10}.
std::optional<KernelVersion> ParseKernelVersion(std::string_view release);

// The state letters, or "" for an invalid state.
std::string TaskStateToString(int64_t raw_state, std::optional<KernelVersion> version);

}  // namespace tw
