#pragma once
// Timelines and what is on them: tracks, slices, counter values, states and flows.

#include "libs/trace/storage/table_declaration.h"

namespace tw {

// One table holds every kind of track; the typed views (thread_track, counter_track, ...) select
// from it by `event_type` and the denormalised dimension columns (utid, upid, cpu).
// clang-format off
#define TW_TRACK_TABLE(TABLE, COLUMN)                                                            \
  TABLE(TrackTable, track,                                                                       \
        "One row per timeline of events of one kind in one context (a thread's slices, a "      \
        "CPU's frequency, a process's async slices, ...).")                                      \
  COLUMN(name, String, kNone, {}, "The track's name; NULL for some kinds (thread tracks).")      \
  COLUMN(type, String, kNone, {},                                                                \
         "What the track is about, trace_processor's classification (thread, cpu_frequency, "    \
         "android_actual_frame_timeline, ...).")                                                 \
  COLUMN(dimension_arg_set_id, OptUint32, kNone, {},                                             \
         "The args that tell this track apart from others of its type (utid, cpu, ...).")        \
  COLUMN(parent_id, OptUint32, kNone, {},                                                        \
         "The parent track (track.id), for tracks nested by the track_event API.")               \
  COLUMN(source_arg_set_id, OptUint32, kNone, {},                                                \
         "Args about where the track came from (description, source ids).")                      \
  COLUMN(machine_id, OptUint32, kNone, 0, "The machine (machine.id); 0 is the host.")            \
  COLUMN(track_group_id, OptInt64, kNone, {}, "Groups tracks the UI shows merged.")              \
  COLUMN(event_type, String, kNone, {},                                                          \
         "What the track holds: 'slice', 'counter' or 'state' (not a trace_processor column).")  \
  COLUMN(counter_unit, String, kNone, {}, "For counter tracks: the values' unit, if known.")      \
  COLUMN(utid, OptUint32, kNone, {}, "For thread-scoped tracks: the thread (thread.id).")        \
  COLUMN(upid, OptUint32, kNone, {}, "For process-scoped tracks: the process (process.id).")     \
  COLUMN(cpu, OptUint32, kNone, {}, "For CPU-scoped tracks: the CPU number.")
// clang-format on
TW_DEFINE_TABLE(TW_TRACK_TABLE)

// clang-format off
#define TW_SLICE_TABLE(TABLE, COLUMN)                                                            \
  TABLE(SliceTable, slice,                                                                       \
        "One row per slice: a named stretch of time on a track (atrace sections, track events, " \
        "frame timeline slices, ...). Slices on one track nest by depth.")                        \
  COLUMN(ts, Int64, kNone, {}, "When the slice began (trace clock, ns).")                        \
  COLUMN(dur, Int64, kNone, {},                                                                  \
         "Its duration in ns; 0 for an instant, -1 when it never ended in the trace.")           \
  COLUMN(track_id, Uint32, kNone, {}, "The track it is on (track.id).")                          \
  COLUMN(category, String, kNone, {}, "The category (track events and JSON); often NULL.")      \
  COLUMN(name, String, kNone, {}, "The slice's name.")                                           \
  COLUMN(depth, Uint32, kNone, {}, "Nesting depth on its track: 0 for a root slice.")            \
  COLUMN(parent_id, OptUint32, kNone, {}, "The enclosing slice (slice.id); NULL at depth 0.")    \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The slice's args (args.arg_set_id).")                \
  COLUMN(thread_ts, OptInt64, kNone, {}, "Thread CPU time when the slice began, if recorded.")   \
  COLUMN(thread_dur, OptInt64, kNone, {}, "Thread CPU time spent in the slice, if recorded.")    \
  COLUMN(thread_instruction_count, OptInt64, kNone, {},                                          \
         "Instruction counter when the slice began, if recorded.")                               \
  COLUMN(thread_instruction_delta, OptInt64, kNone, {},                                          \
         "Instructions retired during the slice, if recorded.")
// clang-format on
TW_DEFINE_TABLE(TW_SLICE_TABLE)

// clang-format off
#define TW_COUNTER_TABLE(TABLE, COLUMN)                                                          \
  TABLE(CounterTable, counter,                                                                   \
        "One row per counter sample: a value of a counter track at a time (CPU frequency, "      \
        "memory, battery, ...). The value holds until the track's next sample.")                 \
  COLUMN(ts, Int64, kNone, {}, "When the value was sampled (trace clock, ns).")                  \
  COLUMN(track_id, Uint32, kNone, {}, "The counter track (counter_track.id).")                   \
  COLUMN(value, Double, kNone, {}, "The value, in the track's unit.")                            \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "Args of the sample, if any.")
// clang-format on
TW_DEFINE_TABLE(TW_COUNTER_TABLE)

// clang-format off
#define TW_STATE_TABLE(TABLE, COLUMN)                                                            \
  TABLE(StateTable, state,                                                                       \
        "One row per stretch of a string-valued state track (track events' state tracks).")      \
  COLUMN(ts, Int64, kNone, {}, "When the state began (trace clock, ns).")                        \
  COLUMN(dur, Int64, kNone, {}, "How long it lasted, in ns; -1 when it never ended.")            \
  COLUMN(track_id, Uint32, kNone, {}, "The state track (track.id).")                             \
  COLUMN(category, String, kNone, {}, "The category, if any.")                                   \
  COLUMN(value, String, kNone, {}, "The state's value.")                                         \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "Args of the state, if any.")
// clang-format on
TW_DEFINE_TABLE(TW_STATE_TABLE)

// clang-format off
#define TW_FLOW_TABLE(TABLE, COLUMN)                                                             \
  TABLE(FlowTable, flow,                                                                         \
        "One row per directed link between two slices: a binder reply to its transaction, a "   \
        "task posted on one thread and run on another, track-event flows.")                      \
  COLUMN(slice_out, Uint32, kNone, {}, "The slice the flow leaves (slice.id).")                  \
  COLUMN(slice_in, Uint32, kNone, {}, "The slice the flow enters (slice.id).")                   \
  COLUMN(trace_id, OptInt64, kNone, {}, "The flow id the trace gave, if any.")                   \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "Args of the flow, if any.")
// clang-format on
TW_DEFINE_TABLE(TW_FLOW_TABLE)

}  // namespace tw
