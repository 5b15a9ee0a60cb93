#pragma once
// Splits one line of ftrace text output (what /sys/kernel/tracing/trace, atrace and systrace
// print) into its columns:
//
//   <task>-<pid> [(<tgid>)] [<cpu>] [<flags>] <seconds>.<fraction>: <event>: <args>
//   e.g. "  <...>-1234  (  1200) [001] d..3  1234.567890: sched_switch: prev_comm=..."
//
// The task name may itself contain '-', digits, spaces, ':' and brackets ("irq/409-inv_irq",
// "task-1234"), so the columns are found by shape, as trace_processor's line pattern does: the
// leftmost "-<pid>" followed by the optional tgid, the bracketed cpu, optional irq/preempt
// flags (3 letters and 1-2 hex digits or dots, "d..3", "dNsa."), and the timestamp.

#include <cstdint>
#include <optional>
#include <string_view>

namespace tw {

struct FtraceTextLine {
  std::string_view task;  // trimmed; "<...>" when ftrace did not know the comm
  uint32_t pid = 0;
  std::optional<uint32_t> tgid;  // absent column, "(-----)" or unparseable: nullopt
  uint32_t cpu = 0;
  int64_t ts = 0;          // nanoseconds
  std::string_view event;  // "sched_switch", "tracing_mark_write", "0", ...
  std::string_view args;   // trimmed text after "<event>:"
};

// False when the line does not have that shape or a number does not fit.
bool ParseFtraceTextLine(std::string_view line, FtraceTextLine* out);

// "<seconds>.<fraction>" to nanoseconds, exactly (digits past the ninth are dropped).
std::optional<int64_t> ParseFtraceTimestamp(std::string_view text);

}  // namespace tw
