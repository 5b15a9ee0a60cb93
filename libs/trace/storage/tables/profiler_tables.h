#pragma once
// Callstack profiles: mappings, frames, callsites and symbols (trace_processor's stack_profile_*
// tables), the CPU profile samples that point into them (Chrome JSON's legacy V8 CPU profiles),
// the callstacks of track events, and Linux perf sampling (traced_perf's sessions and samples).

#include "libs/trace/storage/table_declaration.h"

namespace tw {

// clang-format off
#define TW_STACK_PROFILE_MAPPING_TABLE(TABLE, COLUMN)                                            \
  TABLE(StackProfileMappingTable, stack_profile_mapping,                                         \
        "A mapping (binary, library or, for profilers without addresses such as V8's, a "        \
        "placeholder covering everything) that frames belong to.")                               \
  COLUMN(build_id, String, kNone, {}, "Hex-encoded build id of the binary / library.")           \
  COLUMN(exact_offset, Int64, kNone, {}, "Offset of the mapping in its file, as mapped.")        \
  COLUMN(start_offset, Int64, kNone, {}, "Offset in the file of the start of the ELF.")          \
  COLUMN(start, Int64, kNone, {}, "Start of the mapping in the process' address space.")         \
  COLUMN(end, Int64, kNone, {}, "End of the mapping in the process' address space.")             \
  COLUMN(load_bias, Int64, kNone, {}, "The mapping's load bias.")                                \
  COLUMN(name, String, kNone, {}, "Filename of the binary / library; empty for a placeholder.")
// clang-format on
TW_DEFINE_TABLE(TW_STACK_PROFILE_MAPPING_TABLE)

// clang-format off
#define TW_STACK_PROFILE_FRAME_TABLE(TABLE, COLUMN)                                              \
  TABLE(StackProfileFrameTable, stack_profile_frame,                                             \
        "A location in a program: a function in a mapping.")                                     \
  COLUMN(name, String, kNone, {}, "Name of the function this location is in.")                   \
  COLUMN(mapping, Uint32, kNone, {}, "The mapping this location is in (stack_profile_mapping).") \
  COLUMN(rel_pc, Int64, kNone, {}, "The program counter relative to the mapping's start.")       \
  COLUMN(symbol_set_id, OptUint32, kNone, {},                                                    \
         "The symbol information of this frame (stack_profile_symbol.symbol_set_id), if any.")   \
  COLUMN(deobfuscated_name, String, kNone, {}, "Deobfuscated name of the function, if known.")
// clang-format on
TW_DEFINE_TABLE(TW_STACK_PROFILE_FRAME_TABLE)

// clang-format off
#define TW_STACK_PROFILE_CALLSITE_TABLE(TABLE, COLUMN)                                           \
  TABLE(StackProfileCallsiteTable, stack_profile_callsite,                                       \
        "A callstack, as a frame and the callsite it was called from: one row per distinct "     \
        "(parent, frame, depth).")                                                               \
  COLUMN(depth, Uint32, kNone, {}, "Distance from the bottom-most frame of the callstack.")      \
  COLUMN(parent_id, OptUint32, kNone, {}, "Parent frame on the callstack; NULL at the bottom.")  \
  COLUMN(frame_id, Uint32, kNone, {}, "Frame at this position in the callstack.")
// clang-format on
TW_DEFINE_TABLE(TW_STACK_PROFILE_CALLSITE_TABLE)

// clang-format off
#define TW_STACK_PROFILE_SYMBOL_TABLE(TABLE, COLUMN)                                             \
  TABLE(StackProfileSymbolTable, stack_profile_symbol,                                           \
        "Symbol information of frames: the function, source file and line of a location.")      \
  COLUMN(symbol_set_id, Uint32, kNone, {}, "The set this row belongs to (one per frame).")       \
  COLUMN(name, String, kNone, {}, "Name of the function.")                                       \
  COLUMN(source_file, String, kNone, {}, "The source file (a script URL for JavaScript).")       \
  COLUMN(line_number, OptUint32, kNone, {}, "The line in the source file, if known.")
// clang-format on
TW_DEFINE_TABLE(TW_STACK_PROFILE_SYMBOL_TABLE)

// clang-format off
#define TW_CPU_PROFILE_STACK_SAMPLE_TABLE(TABLE, COLUMN)                                         \
  TABLE(CpuProfileStackSampleTable, cpu_profile_stack_sample,                                    \
        "Stack samples from CPU profiling (Chrome JSON's legacy V8 CPU profiles): what a "       \
        "thread was running at one moment.")                                                     \
  COLUMN(ts, Int64, kNone, {}, "Timestamp of the sample (trace clock, ns).")                     \
  COLUMN(callsite_id, Uint32, kNone, {}, "The unwound callstack (stack_profile_callsite.id).")   \
  COLUMN(utid, Uint32, kNone, {}, "Thread that was active when the sample was taken.")           \
  COLUMN(process_priority, Int32, kNone, {}, "The process' priority (0 when not reported).")
// clang-format on
TW_DEFINE_TABLE(TW_CPU_PROFILE_STACK_SAMPLE_TABLE)

// clang-format off
#define TW_TRACK_EVENT_CALLSTACKS_TABLE(TABLE, COLUMN)                                          \
  TABLE(TrackEventCallstacksTable, track_event_callstacks,                                       \
        "The callstacks track events carried (TrackEvent.callstack / callstack_iid): one row "   \
        "per event with a callstack, linking its slice to the callsite.")                        \
  COLUMN(slice_id, Uint32, kNone, {}, "The slice the event began, ended or was (slice.id).")     \
  COLUMN(track_id, Uint32, kNone, {}, "The slice's track (track.id).")                           \
  COLUMN(callsite_id, OptUint32, kNone, {},                                                      \
         "The callstack of a begin, instant or complete event (stack_profile_callsite.id).")     \
  COLUMN(end_callsite_id, OptUint32, kNone, {},                                                  \
         "The callstack of an end event (stack_profile_callsite.id).")                           \
  COLUMN(weight, OptDouble, kNone, {},                                                           \
         "The event's callstack_weight, if it gave one (weighted aggregations use only these).")
// clang-format on
TW_DEFINE_TABLE(TW_TRACK_EVENT_CALLSTACKS_TABLE)

// clang-format off
#define TW_PERF_SESSION_TABLE(TABLE, COLUMN)                                                     \
  TABLE(PerfSessionTable, perf_session,                                                          \
        "A Linux perf sampling session: one per data source that wrote perf samples (each "      \
        "traced_perf sequence).")                                                                \
  COLUMN(cmdline, String, kNone, {}, "Command line used to collect the data, if known.")
// clang-format on
TW_DEFINE_TABLE(TW_PERF_SESSION_TABLE)

// clang-format off
#define TW_PERF_SAMPLE_TABLE(TABLE, COLUMN)                                                      \
  TABLE(PerfSampleTable, perf_sample,                                                            \
        "Samples of Linux perf sampling (traced_perf): one per sample, including samples of "    \
        "counters only, without a callstack.")                                                   \
  COLUMN(ts, Int64, kNone, {}, "When the sample was taken (trace clock, ns).")                   \
  COLUMN(utid, Uint32, kNone, {}, "The sampled thread (thread.id).")                             \
  COLUMN(cpu, OptUint32, kNone, {}, "The cpu the sampled thread was running on.")                \
  COLUMN(cpu_mode, String, kNone, {},                                                            \
         "Where the thread was executing: kernel, user, hypervisor, guest_kernel, guest_user; "  \
         "NULL when unknown.")                                                                   \
  COLUMN(callsite_id, OptUint32, kNone, {},                                                      \
         "The unwound callstack of the sampled thread (stack_profile_callsite.id), if any.")     \
  COLUMN(unwind_error, String, kNone, {},                                                        \
         "Why unwinding the callstack stopped early, if it did (the callstack is then the "      \
         "part unwound).")                                                                       \
  COLUMN(perf_session_id, Uint32, kNone, {}, "The session (perf_session.id).")
// clang-format on
TW_DEFINE_TABLE(TW_PERF_SAMPLE_TABLE)

// clang-format off
#define TW_PERF_SAMPLE_COUNTER_TABLE(TABLE, COLUMN)                                              \
  TABLE(PerfSampleCounterTable, perf_sample_counter,                                             \
        "The counter values a perf sample read: one row per (sample, counter), linking the "     \
        "sample to its row in `counter` (the timebase and each follower counter).")              \
  COLUMN(sample_id, Uint32, kNone, {}, "The sample (perf_sample.id).")                           \
  COLUMN(counter_id, Uint32, kNone, {}, "The counter value it read (counter.id).")
// clang-format on
TW_DEFINE_TABLE(TW_PERF_SAMPLE_COUNTER_TABLE)

// clang-format off
#define TW_HEAP_PROFILE_TABLE(TABLE, COLUMN)                                                     \
  TABLE(HeapProfileTable, heap_profile,                                                          \
        "The heap profiles (heapprofd dumps) of the trace: one row per (process, dump, heap), "  \
        "the window of time the dump covers.")                                                   \
  COLUMN(ts, Int64, kNone, {}, "Start of the profiling window (trace clock, ns).")               \
  COLUMN(ts_end, Int64, kNone, {},                                                               \
         "End of the window: when the dump was taken, and the ts of its allocations "            \
         "(heap_profile_allocation joins on upid and ts = ts_end).")                             \
  COLUMN(dur, Int64, kNone, {}, "ts_end - ts; 0 when the producer gave no start.")               \
  COLUMN(upid, Uint32, kNone, {}, "The profiled process (process.upid).")                        \
  COLUMN(heap_name, String, kNone, {},                                                           \
         "The heap dumped (libc.malloc for the native heap, com.android.art, a custom heap); "   \
         "NULL when the producer named none.")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_PROFILE_TABLE)

// clang-format off
#define TW_HEAP_PROFILE_ALLOCATION_TABLE(TABLE, COLUMN)                                          \
  TABLE(HeapProfileAllocationTable, heap_profile_allocation,                                     \
        "Allocations and frees at a callsite between two heapprofd dumps. Not sorted by ts.")    \
  COLUMN(ts, Int64, kNone, {},                                                                   \
         "When the dump that reported them was taken: every row of a dump has its ts "          \
         "(heap_profile.ts_end).")                                                               \
  COLUMN(upid, Uint32, kNone, {}, "The allocating process (process.upid).")                      \
  COLUMN(heap_name, String, kNone, {},                                                           \
         "The heap allocated from; 'unknown' when the producer named none.")                    \
  COLUMN(callsite_id, Uint32, kNone, {}, "The callstack allocated at (stack_profile_callsite).") \
  COLUMN(count, Int64, kNone, {},                                                                \
         "> 0: allocations at the callsite since the previous dump; < 0: how many of them were " \
         "freed.")                                                                               \
  COLUMN(size, Int64, kNone, {},                                                                 \
         "> 0: bytes allocated at the callsite since the previous dump; < 0: bytes of them "     \
         "freed.")
// clang-format on
TW_DEFINE_TABLE(TW_HEAP_PROFILE_ALLOCATION_TABLE)

}  // namespace tw
