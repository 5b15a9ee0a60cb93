#pragma once
// sched.latency's table, computed in one pass (a derived table, see derived_tables.h): for each
// running interval, the sched row it came from and the runnable state before it. The SQL join it
// replaces looked up thread_state twice and sched once per running interval, ~190 ms of CPU on
// a 1 M-event trace.

#include "libs/trace/storage/table_declaration.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// clang-format off
#define TW_SCHED_LATENCY_TABLE(TABLE, COLUMN)                                                   \
  TABLE(SchedLatencyTable, sched_latency,                                                       \
        "sched.latency's sched_latency_for_running_interval: one row per finished Running "    \
        "thread_state row that has an earlier runnable state on its thread and per sched row "  \
        "with its utid, ts and dur, in thread_state id order, then sched id order.")            \
  COLUMN(thread_state_id, Uint32, kSorted, {}, "The Running state (thread_state.id).")         \
  COLUMN(sched_id, Uint32, kNone, {}, "The same interval in sched (sched.id).")                \
  COLUMN(utid, Uint32, kNone, {}, "The thread (thread.id).")                                   \
  COLUMN(runnable_latency_id, Uint32, kNone, {},                                                \
         "The latest earlier R or R+ state of the thread (thread_state.id).")                   \
  COLUMN(latency_dur, Int64, kNone, {}, "That runnable state's duration, in ns.")
// clang-format on
TW_DEFINE_TABLE(TW_SCHED_LATENCY_TABLE)

// Fills `out` from `storage`: sched_previous_runnable's rows (FillSchedPreviousRunnable) with
// a previous runnable state, joined with every sched row of the same utid, ts and dur.
void FillSchedLatency(const TraceStorage& storage, SchedLatencyTable* out);

}  // namespace tw
