#pragma once
// linux.cpu.utilization's building blocks, computed in one pass (derived tables, see
// derived_tables.h): every running stretch of a thread split where its CPU's frequency changed,
// and the per (thread, CPU) sums the cycle views read. The SQL they replace looked up each sched
// row's frequency, numbered the 314 k pieces with a window (a sort) and grouped them (another
// sort): ~0.5 s of CPU for the split and ~0.8 s for the first cycles view on a 1 M-event trace.
//
// A CPU's frequency intervals are linux.cpu.frequency's cpu_frequency_counters (the samples of
// each cpu counter track named "cpufreq", each lasting to the track's next sample or the trace's
// end, on every cpu row of that CPU number and machine) plus, per CPU, a NULL-frequency
// interval from the trace's start to its first sample when that is later.

#include "libs/trace/storage/table_declaration.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// clang-format off
#define TW_CPU_FREQ_PER_THREAD_TABLE(TABLE, COLUMN)                                             \
  TABLE(CpuFreqPerThreadTable, cpu_freq_per_thread,                                             \
        "Every sched row with dur > 0 of a thread that is not an idle task, split by its "     \
        "CPU's frequency intervals: one row per interval that starts at or after the one "     \
        "holding at the row's start and before its end (or one row with NULL frequency when "  \
        "there is none), ordered by the sched row's ts, then CPU, then the interval's ts.")    \
  COLUMN(ts, Int64, kNone, {}, "The later of the sched row's and the interval's start.")        \
  COLUMN(dur, Int64, kNone, {},                                                                 \
         "The earlier of their ends minus ts (the sched row's dur when no interval).")          \
  COLUMN(ucpu, Uint32, kNone, {}, "The CPU (cpu.id).")                                          \
  COLUMN(utid, Uint32, kNone, {}, "The thread (thread.id).")                                    \
  COLUMN(freq, OptInt64, kNone, {}, "The frequency, in kHz; NULL where unknown.")               \
  COLUMN(counter_id, OptUint32, kNone, {}, "The frequency sample (counter.id), if any.")
#define TW_THREAD_CPU_CYCLES_TABLE(TABLE, COLUMN)                                               \
  TABLE(ThreadCpuCyclesTable, thread_cpu_cycles,                                                \
        "Per (thread, CPU) of cpu_freq_per_thread, in that order: the sums the cycle views "   \
        "divide.")                                                                              \
  COLUMN(utid, Uint32, kSorted, {}, "The thread (thread.id).")                                  \
  COLUMN(ucpu, Uint32, kNone, {}, "The CPU (cpu.id).")                                          \
  COLUMN(millicycles, OptInt64, kNone, {},                                                      \
         "Sum of dur * freq / 1000 (integer division) over the pieces with a frequency; "      \
         "NULL when none has one.")                                                             \
  COLUMN(runtime, Int64, kNone, {}, "Sum of the pieces' dur, in ns.")                           \
  COLUMN(min_freq, OptInt64, kNone, {}, "The lowest frequency, in kHz.")                        \
  COLUMN(max_freq, OptInt64, kNone, {}, "The highest frequency, in kHz.")
// clang-format on
TW_DEFINE_TABLE(TW_CPU_FREQ_PER_THREAD_TABLE)
TW_DEFINE_TABLE(TW_THREAD_CPU_CYCLES_TABLE)

void FillCpuFreqPerThread(const TraceStorage& storage, CpuFreqPerThreadTable* out);
void FillThreadCpuCycles(const TraceStorage& storage, ThreadCpuCyclesTable* out);

}  // namespace tw
