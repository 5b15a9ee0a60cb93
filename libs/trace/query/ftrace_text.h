#pragma once
// Renders an ftrace_event row as the line the kernel's text trace shows for it (the `to_ftrace(id)`
// SQL function, as trace_processor offers it):
//
//     "       <comm>-<tid>   (<tgid>) [<cpu>] .... <secs>.<micros>: <event>: <fields>"
//
// The task name is right-aligned in 16 columns ('-' becomes '_'; <idle> for tid 0, <unknown>
// when unnamed), the tid left-aligned in 5, the tgid right-aligned in 5 ("-----" when the thread
// has no process), the CPU zero-padded to 3 digits, the time truncated to microseconds. The
// fields are "key=value" pairs in the event's field order, except for the events whose kernel
// format trace_processor reproduces (sched_switch, sched_wakeup, print, binder, workqueue, irq,
// softirq, clock, cgroup_attach_task, the tracing_mark_write family, ...); a `gfp_flags` field is
// printed as the kernel's flag names.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libs/trace/events/task_state.h"

namespace tw {

class TraceStorage;

// The line for row `row` of storage.ftrace_event, whose args are the rows `arg_rows` of
// storage.args (in set order). nullopt for rows that are not kernel events (track_event.* and
// chrome_event.* rows, which trace_processor keeps in the same table). `kernel` decides how
// sched_switch's prev_state and gfp flags are read (trace_processor's defaults when unknown).
std::optional<std::string> FtraceEventText(const TraceStorage& storage, uint32_t row,
                                           const std::vector<uint32_t>& arg_rows,
                                           std::optional<KernelVersion> kernel);

// The kernel's names for a gfp_t allocation-flags value ("GFP_KERNEL|__GFP_ZERO" style, printed
// as trace_processor prints them, without the leading underscores): composite masks first, then
// single bits, any unnamed remainder as hex. 0 is GFP_NOWAIT.
std::string GfpFlagsText(uint64_t flags, std::optional<KernelVersion> kernel);

}  // namespace tw
