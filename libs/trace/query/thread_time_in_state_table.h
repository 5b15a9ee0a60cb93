#pragma once
// sched.time_in_state's per (thread, state) totals, computed in one pass over thread_state (a
// derived table, see derived_tables.h). The GROUP BY it replaces sorted every thread_state row:
// ~1 s of CPU per use on a 1 M-event trace (861 k rows), paid again by every view over it.

#include "libs/trace/storage/table_declaration.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// clang-format off
#define TW_THREAD_TIME_IN_STATE_TABLE(TABLE, COLUMN)                                            \
  TABLE(ThreadTimeInStateTable, thread_time_in_state,                                           \
        "Per thread and state of its thread_state rows with dur > 0: their total duration. In " \
        "utid order, then state (NULL first, text by bytes).")                                  \
  COLUMN(utid, Uint32, kSorted, {}, "The thread (thread.id).")                                  \
  COLUMN(state, String, kNone, {}, "The state (thread_state.state).")                           \
  COLUMN(time_in_state, Int64, kNone, {}, "Time spent in it, in ns.")
// clang-format on
TW_DEFINE_TABLE(TW_THREAD_TIME_IN_STATE_TABLE)

void FillThreadTimeInState(const TraceStorage& storage, ThreadTimeInStateTable* out);

}  // namespace tw
