#pragma once
// Raw events, args, logs and the facts about the trace itself (metadata, stats, clocks).

#include "libs/trace/storage/table_declaration.h"

namespace tw {

// clang-format off
#define TW_ARG_TABLE(TABLE, COLUMN)                                                              \
  TABLE(ArgTable, args,                                                                          \
        "Key/value details attached to other rows: rows sharing an arg_set_id are one set, "     \
        "which a slice, thread, ftrace event, ... points at with its own arg_set_id.")           \
  COLUMN(arg_set_id, Uint32, kSorted, {}, "The set the arg belongs to.")                         \
  COLUMN(flat_key, String, kNone, {}, "The key without array indexes (a.b for a[0].b).")         \
  COLUMN(key, String, kNone, {}, "The full key, with array indexes (a[0].b).")                   \
  COLUMN(int_value, OptInt64, kNone, {},                                                         \
         "The value, for int, uint, bool and pointer args.")                                     \
  COLUMN(string_value, String, kNone, {}, "The value, for string and json args.")                \
  COLUMN(real_value, OptDouble, kNone, {}, "The value, for real args.")                          \
  COLUMN(value_type, String, kNone, {},                                                          \
         "Which value column holds the value: int, uint, string, real, pointer, bool or json.")
// clang-format on
TW_DEFINE_TABLE(TW_ARG_TABLE)

// clang-format off
#define TW_FTRACE_EVENT_TABLE(TABLE, COLUMN)                                                     \
  TABLE(FtraceEventTable, ftrace_event,                                                          \
        "One row per raw ftrace event kept as is (also visible as `raw`), its fields as args.")  \
  COLUMN(ts, Int64, kNone, {}, "When the event happened (trace clock, ns).")                     \
  COLUMN(name, String, kNone, {}, "The ftrace event's name (sched_switch, print, ...).")         \
  COLUMN(utid, Uint32, kNone, {}, "The thread that was running when it fired (thread.id).")      \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The event's fields, as args.")                       \
  COLUMN(common_flags, Uint32, kNone, {},                                                        \
         "The ftrace common_flags (irqs off, need-resched, hardirq, softirq, ...).")             \
  COLUMN(ucpu, Uint32, kNone, {}, "The CPU it fired on (cpu.id).")
// clang-format on
TW_DEFINE_TABLE(TW_FTRACE_EVENT_TABLE)

// clang-format off
#define TW_CHROME_RAW_TABLE(TABLE, COLUMN)                                                       \
  TABLE(ChromeRawTable, chrome_raw,                                                              \
        "Legacy Chrome track events that are neither slices, instants, flows nor counters "      \
        "(other phases, metadata events other than thread and process names), kept for JSON "    \
        "export with their legacy fields as args (legacy_event.category, .name, .phase, ...).")  \
  COLUMN(ts, Int64, kNone, {}, "When the event happened (trace clock, ns).")                     \
  COLUMN(name, String, kNone, {}, "Always track_event.legacy_event.")                            \
  COLUMN(utid, Uint32, kNone, {}, "The thread that emitted it (thread.id).")                     \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The legacy fields and the event's args.")
// clang-format on
TW_DEFINE_TABLE(TW_CHROME_RAW_TABLE)

// clang-format off
#define TW_LOG_TABLE(TABLE, COLUMN)                                                              \
  TABLE(LogTable, logs,                                                                          \
        "One row per log line: Android logcat (also visible as `android_logs`) and other log "   \
        "sources.")                                                                              \
  COLUMN(ts, Int64, kNone, {}, "When the line was logged (trace clock, ns).")                    \
  COLUMN(utid, OptUint32, kNone, {}, "The thread that logged it (thread.id), if known.")         \
  COLUMN(prio, Uint32, kNone, {},                                                                \
         "Priority: 2 verbose, 3 debug, 4 info, 5 warn, 6 error, 7 fatal (Android levels).")     \
  COLUMN(log_source, String, kNone, {}, "Where the line came from (android_logcat, ...).")       \
  COLUMN(tag, String, kNone, {}, "The log tag.")                                                 \
  COLUMN(msg, String, kNone, {}, "The message.")                                                 \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "Structured fields of the line, if any.")
// clang-format on
TW_DEFINE_TABLE(TW_LOG_TABLE)

// clang-format off
#define TW_METADATA_TABLE(TABLE, COLUMN)                                                         \
  TABLE(MetadataTable, metadata,                                                                 \
        "Facts about the trace as a whole, one row per key (several for multi-valued keys): "    \
        "trace size, clocks, Android build, trace config, ...")                                  \
  COLUMN(name, String, kNone, {}, "The key (trace_size_bytes, android_build_fingerprint, ...).")  \
  COLUMN(key_type, String, kNone, {}, "'single', or 'multi' for keys with several rows.")        \
  COLUMN(int_value, OptInt64, kNone, {}, "The value, for integer keys.")                         \
  COLUMN(str_value, String, kNone, {}, "The value, for string keys.")                            \
  COLUMN(machine_id, OptUint32, kNone, {}, "For facts about one machine: the machine.")          \
  COLUMN(trace_id, OptUint32, kNone, {}, "For facts about one trace file: the trace.")
// clang-format on
TW_DEFINE_TABLE(TW_METADATA_TABLE)

// clang-format off
#define TW_STATS_TABLE(TABLE, COLUMN)                                                            \
  TABLE(StatsTable, stats,                                                                       \
        "Counters of what happened while importing: data lost by the recorder, events the "     \
        "importer could not use, errors. Check them before trusting a surprising result.")       \
  COLUMN(name, String, kNone, {}, "The stat's name (trace_processor's names).")                  \
  COLUMN(key, Int64, kNone, {}, "The row's number among the stats.")                             \
  COLUMN(idx, OptInt64, kNone, {}, "For indexed stats: the index (a CPU, a buffer).")            \
  COLUMN(severity, String, kNone, {},                                                            \
         "info, data_loss (the trace misses data) or error (the importer could not use data).")  \
  COLUMN(source, String, kNone, {}, "trace (reported by the recorder) or analysis (by import).")  \
  COLUMN(value, Int64, kNone, {}, "The count.")                                                  \
  COLUMN(description, String, kNone, {}, "What the stat means.")                                 \
  COLUMN(machine_id, OptUint32, kNone, {}, "The machine it is about, if any.")                   \
  COLUMN(trace_id, OptUint32, kNone, {}, "The trace file it is about, if any.")
// clang-format on
TW_DEFINE_TABLE(TW_STATS_TABLE)

// clang-format off
#define TW_TRACE_DIAGNOSTICS_TABLE(TABLE, COLUMN)                                                \
  TABLE(TraceDiagnosticsTable, trace_diagnostics,                                                \
        "Settings of the trace's config known to hurt its quality (a tiny ftrace buffer, a "     \
        "low drain bandwidth, kernel addresses without symbols, ...), one row per finding. "     \
        "Queried as __intrinsic_trace_diagnostics.")                                             \
  COLUMN(key, String, kNone, {}, "Stable identifier of the check (tiny_ftrace_buffer, ...).")    \
  COLUMN(title, String, kNone, {}, "Short title of the problem.")                                \
  COLUMN(description, String, kNone, {}, "What was found, with the config's values.")            \
  COLUMN(remediation, String, kNone, {}, "How to record the next trace better.")                 \
  COLUMN(confidence, Double, kNone, {}, "How likely the setting hurt this trace, 0 to 1.")        \
  COLUMN(trace_id, OptUint32, kNone, {}, "The trace file whose config it is.")
// clang-format on
TW_DEFINE_TABLE(TW_TRACE_DIAGNOSTICS_TABLE)

// clang-format off
#define TW_TRACE_IMPORT_LOGS_TABLE(TABLE, COLUMN)                                                \
  TABLE(TraceImportLogsTable, trace_import_logs,                                                 \
        "One row per problem met while importing that carries details beyond its stat's count "  \
        "(the error text a producer wrote, the value that was not understood): the stat it "     \
        "counted towards and its args. Read through _trace_import_logs.")                         \
  COLUMN(trace_id, OptUint32, kNone, {}, "The trace file the problem was in.")                    \
  COLUMN(ts, OptInt64, kNone, {}, "When it happened (trace clock, ns), if known.")               \
  COLUMN(byte_offset, OptInt64, kNone, {}, "Where in the file it happened, if known.")           \
  COLUMN(stat_key, Int64, kNone, {}, "The stat it counted towards (stats.key).")                  \
  COLUMN(name, String, kNone, {}, "That stat's name.")                                           \
  COLUMN(arg_set_id, OptUint32, kNone, {}, "The details, as args.")
// clang-format on
TW_DEFINE_TABLE(TW_TRACE_IMPORT_LOGS_TABLE)

// clang-format off
#define TW_CLOCK_SNAPSHOT_TABLE(TABLE, COLUMN)                                                   \
  TABLE(ClockSnapshotTable, clock_snapshot,                                                      \
        "The clock snapshots the trace recorded: the readings of every clock at one instant, "   \
        "which convert timestamps between clocks.")                                              \
  COLUMN(ts, Int64, kNone, {}, "The snapshot's time on the trace clock (ns).")                   \
  COLUMN(clock_id, Int64, kNone, {},                                                             \
         "The clock read (1 REALTIME, 3 MONOTONIC, 6 BOOTTIME, ...; 64+ sequence-scoped).")       \
  COLUMN(clock_name, String, kNone, {}, "The clock's name, when known.")                         \
  COLUMN(clock_value, Int64, kNone, {}, "The clock's reading, in ns.")                           \
  COLUMN(snapshot_id, Uint32, kNone, {}, "Which snapshot the reading belongs to.")               \
  COLUMN(machine_id, OptUint32, kNone, {}, "The machine whose clocks were read.")
// clang-format on
TW_DEFINE_TABLE(TW_CLOCK_SNAPSHOT_TABLE)

}  // namespace tw
