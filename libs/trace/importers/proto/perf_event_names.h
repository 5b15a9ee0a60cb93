#pragma once
// Names of the counters a traced_perf stream samples, as the perf tool names them: the name the
// config gave, else the counter's perf name ("cpu-clock", "instructions"), the tracepoint's
// "group:name" or a "raw.0x<type>.0x<config>.0x<config1>.0x<config2>" label, with the event
// modifiers as a ":ukh" suffix. trace_processor names perf counter tracks this way, so SQL that
// looks for "cpu-cycles" finds them.

#include <cstdint>
#include <string>
#include <string_view>

namespace tw {

// Field numbers of an event description: PerfEvents.Timebase and FollowerEvent describe an
// event with the same fields under different numbers.
struct PerfEventFieldNumbers {
  uint32_t counter, tracepoint, raw_event, name, modifiers;
};
extern const PerfEventFieldNumbers kPerfTimebaseFields;
extern const PerfEventFieldNumbers kPerfFollowerFields;

// The perf name of PerfEvents.Counter value `counter`; "unknown" for values it does not know.
std::string_view PerfCounterName(uint64_t counter);

// The name of the event `message` (a serialized Timebase or FollowerEvent) describes; "unknown"
// when it names no event (or does not decode).
std::string PerfEventName(std::string_view message, const PerfEventFieldNumbers& fields);

}  // namespace tw
