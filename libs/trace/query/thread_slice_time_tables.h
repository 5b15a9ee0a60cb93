#pragma once
// What a thread slice's thread did during the slice, for slices.time_in_state and
// slices.cpu_time, computed in one pass per table (derived tables, see derived_tables.h). The
// SQL joins they replace visited every state (or sched row) of the slice's thread for each
// slice, because the thread's index answers utid = ? but not the time range: on a 1 M-event
// trace (126 k thread slices, 861 k thread_state rows, 315 k sched rows) ~15 s and ~9 s of CPU.
//
// A thread slice here is a slice with dur > 0 on a slice track of a thread other than utid 0
// (thread_slice's rows with utid > 0 and dur > 0).

#include "libs/trace/storage/table_declaration.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// clang-format off
#define TW_THREAD_SLICE_STATE_TIME_TABLE(TABLE, COLUMN)                                         \
  TABLE(ThreadSliceStateTimeTable, thread_slice_state_time,                                     \
        "Per thread slice and (state, io_wait, blocked_function) of its thread's thread_state " \
        "rows with dur > 0 that overlap it: the time they overlap. In slice id order, then "   \
        "state, io_wait and blocked_function (NULL first, text by bytes).")                     \
  COLUMN(slice_id, Uint32, kSorted, {}, "The slice (slice.id).")                                \
  COLUMN(state, String, kNone, {}, "The thread's state (thread_state.state).")                  \
  COLUMN(io_wait, OptInt8, kNone, {}, "thread_state.io_wait of those rows.")                    \
  COLUMN(blocked_function, String, kNone, {}, "thread_state.blocked_function of those rows.")   \
  COLUMN(dur, Int64, kNone, {}, "Time the thread spent so during the slice, in ns.")
#define TW_THREAD_SLICE_SCHED_TIME_TABLE(TABLE, COLUMN)                                         \
  TABLE(ThreadSliceSchedTimeTable, thread_slice_sched_time,                                     \
        "Per thread slice overlapped by a sched row of its thread with dur > 0, in slice id "   \
        "order: the time they overlap.")                                                        \
  COLUMN(slice_id, Uint32, kSorted, {}, "The slice (slice.id).")                                \
  COLUMN(cpu_time, Int64, kNone, {}, "Time the thread ran during the slice, in ns.")
// clang-format on
TW_DEFINE_TABLE(TW_THREAD_SLICE_STATE_TIME_TABLE)
TW_DEFINE_TABLE(TW_THREAD_SLICE_SCHED_TIME_TABLE)

void FillThreadSliceStateTime(const TraceStorage& storage, ThreadSliceStateTimeTable* out);
void FillThreadSliceSchedTime(const TraceStorage& storage, ThreadSliceSchedTimeTable* out);

}  // namespace tw
