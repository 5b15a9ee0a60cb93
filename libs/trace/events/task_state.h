#pragma once
// Converts a kernel task state (sched_switch prev_state) into the letters trace_processor shows
// in sched.end_state and thread_state.state ("R", "R+", "S", "D", "DK", "I", ...). The bit layout
// changed in kernel 4.14 (and the preemption bit in 4.8), so the kernel version matters; without
// one, 4.4 is assumed as trace_processor does.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

// The reverse, for ftrace text (systrace), which prints prev_state as letters ("S", "D|K",
// "R+", "I"): the raw bits in the 4.4 layout, because text traces carry no kernel version and
// TaskStateToString then assumes 4.4, so the letters come back unchanged. nullopt for an empty
// string or an unknown letter.
std::optional<int64_t> TaskStateFromLetters(std::string_view letters);

}  // namespace tw
