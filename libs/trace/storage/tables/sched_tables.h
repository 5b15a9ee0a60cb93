#pragma once
// Scheduling: what ran on each CPU, and what state each thread was in.

#include "libs/trace/storage/table_declaration.h"

namespace tw {

// clang-format off
#define TW_SCHED_SLICE_TABLE(TABLE, COLUMN)                                                      \
  TABLE(SchedSliceTable, sched_slice,                                                            \
        "One row per stretch of a thread running on a CPU, from sched_switch events: a CPU's "   \
        "rows tile its timeline (the idle task fills the gaps).")                                \
  COLUMN(ts, Int64, kSorted, {}, "When the thread was switched in (trace clock, ns).")           \
  COLUMN(dur, Int64, kNone, {},                                                                  \
         "How long it ran, in ns; -1 when the trace ends while it runs.")                        \
  COLUMN(utid, Uint32, kNone, {}, "The thread that ran (thread.id).")                            \
  COLUMN(end_state, String, kNone, {},                                                           \
         "The thread's state when switched out, as a kernel state letter (R, R+, S, D, ...).")   \
  COLUMN(priority, Int32, kNone, {}, "The kernel priority the thread ran at (lower is higher).")  \
  COLUMN(ucpu, Uint32, kNone, {}, "The CPU it ran on (cpu.id).")
// clang-format on
TW_DEFINE_TABLE(TW_SCHED_SLICE_TABLE)

// clang-format off
#define TW_THREAD_STATE_TABLE(TABLE, COLUMN)                                                     \
  TABLE(ThreadStateTable, thread_state,                                                          \
        "One row per stretch of a thread in one scheduling state (Running, R runnable, S "       \
        "sleeping, D uninterruptible, ...), derived from sched_switch and wake-ups: a thread's " \
        "rows tile its timeline from the first event the trace has about it.")                   \
  COLUMN(ts, Int64, kNone, {}, "When the thread entered the state (trace clock, ns).")           \
  COLUMN(dur, Int64, kNone, -1,                                                                  \
         "How long it stayed, in ns; -1 when the trace ends in this state.")                     \
  COLUMN(utid, Uint32, kNone, {}, "The thread (thread.id).")                                     \
  COLUMN(state, String, kNone, {},                                                               \
         "The state: Running, or a kernel state letter (R runnable, R+ preempted, S, D, T, X, "  \
         "...).")                                                                                \
  COLUMN(io_wait, OptInt8, kNone, {},                                                            \
         "For D states: 1 when the thread waited for I/O (sched_blocked_reason), else 0.")       \
  COLUMN(blocked_function, String, kNone, {},                                                    \
         "For D states: the kernel function the thread blocked in (sched_blocked_reason).")      \
  COLUMN(waker_utid, OptUint32, kNone, {},                                                       \
         "For R states: the thread that woke this one (thread.id), if known.")                   \
  COLUMN(waker_id, OptUint32, kNone, {},                                                         \
         "For R states: the waker's thread_state row at the time of the wake-up.")               \
  COLUMN(irq_context, OptInt8, kNone, {},                                                        \
         "For R states: 1 when the wake-up came from an interrupt, 0 when from a thread.")       \
  COLUMN(ucpu, OptUint32, kNone, {},                                                             \
         "The CPU: where it ran (Running) or was woken to (R); NULL otherwise.")
// clang-format on
TW_DEFINE_TABLE(TW_THREAD_STATE_TABLE)

}  // namespace tw
