#pragma once
// Tables the stdlib needs that one pass over the trace's tables computes in C++, but that SQL
// computes slowly (a window over every thread_state row is a sort of a million rows). Each is
// exposed like an intrinsic table (`__intrinsic_<name>`, with id lookups, sorted ranges and
// lazy indexes) and filled the first time a statement of the database refers to it, so a
// database that never uses it pays nothing. A stdlib module gives it its public name with a
// view.

#include <functional>
#include <memory>
#include <vector>

#include "libs/trace/storage/table_declaration.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// clang-format off
#define TW_SCHED_PREVIOUS_RUNNABLE_TABLE(TABLE, COLUMN)                                          \
  TABLE(SchedPreviousRunnableTable, sched_previous_runnable,                                     \
        "One row per finished Running thread_state row, in id order: the runnable states "      \
        "before it on its thread (sched.runnable's sched_previous_runnable_on_thread).")         \
  COLUMN(thread_state_id, Uint32, kSorted, {}, "The Running state (thread_state.id).")          \
  COLUMN(prev_runnable_id, OptUint32, kNone, {},                                                 \
         "The latest earlier R or R+ state of the thread (thread_state.id).")                    \
  COLUMN(prev_wakeup_runnable_id, OptUint32, kNone, {},                                          \
         "The latest earlier runnable state a thread (not an interrupt) woke (thread_state.id).")
// clang-format on
TW_DEFINE_TABLE(TW_SCHED_PREVIOUS_RUNNABLE_TABLE)

// A step counter of how many intervals of a kind are open: one row per distinct start or end
// timestamp, the count holding from ts to the next row's ts (stdlib's intervals_overlap_count
// over the intervals; an interval with dur -1 never closes).
// clang-format off
#define TW_OVERLAP_COUNT_TABLE(TABLE, COLUMN, Class, sql_name, doc)                            \
  TABLE(Class, sql_name, doc)                                                                  \
  COLUMN(ts, Int64, kSorted, {}, "When the count changed (trace clock, ns).")                  \
  COLUMN(value, Int64, kNone, {}, "How many intervals were open from ts on.")
#define TW_SCHED_RUNNABLE_COUNT_TABLE(TABLE, COLUMN)                                           \
  TW_OVERLAP_COUNT_TABLE(TABLE, COLUMN, SchedRunnableCountTable, sched_runnable_thread_count,  \
                         "Threads in thread_state R over time.")
#define TW_SCHED_BLOCKED_COUNT_TABLE(TABLE, COLUMN)                                            \
  TW_OVERLAP_COUNT_TABLE(TABLE, COLUMN, SchedBlockedCountTable,                                \
                         sched_uninterruptible_sleep_thread_count,                             \
                         "Threads in thread_state D over time.")
#define TW_SCHED_ACTIVE_CPU_COUNT_TABLE(TABLE, COLUMN)                                         \
  TW_OVERLAP_COUNT_TABLE(TABLE, COLUMN, SchedActiveCpuCountTable, sched_active_cpu_count,      \
                         "CPUs running a thread other than an idle one, over time.")
// clang-format on
TW_DEFINE_TABLE(TW_SCHED_RUNNABLE_COUNT_TABLE)
TW_DEFINE_TABLE(TW_SCHED_BLOCKED_COUNT_TABLE)
TW_DEFINE_TABLE(TW_SCHED_ACTIVE_CPU_COUNT_TABLE)

// Fills `out` from `storage`: for every thread_state row whose state is Running and whose dur is
// not -1, in id order, the latest earlier row of the same thread among the rows whose state
// begins with R and whose dur is not -1 that is (a) not Running, (b) has a waker_utid and an
// irq_context other than 1 (NULL counts as 0).
void FillSchedPreviousRunnable(const TraceStorage& storage, SchedPreviousRunnableTable* out);

// A derived table and how to fill it.
struct DerivedTable {
  std::unique_ptr<Table> table;
  std::function<void()> fill;
};

// Every derived table of a database over `storage`, unfilled.
std::vector<DerivedTable> MakeDerivedTables(const TraceStorage* storage);

}  // namespace tw
