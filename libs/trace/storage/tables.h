#pragma once
// The intrinsic tables of a loaded trace, with trace_processor's column names. SQL sees them as
// `__intrinsic_<name>` virtual tables; the public names (slice, thread, sched, ...) are views
// declared in the stdlib's prelude (libs/trace/stdlib/prelude), as trace_processor layers them.
//
// Each table is declared once, as data, in tables/*.h (see table_declaration.h for the format).
// To add a table: declare it in the tables/ file of its domain and list it in TW_TRACE_TABLES
// below; TraceStorage gets a member of that name and SQL a `__intrinsic_<name>` table.

#include <cstdint>
#include <optional>

#include "libs/trace/storage/tables/android_tables.h"
#include "libs/trace/storage/tables/event_tables.h"
#include "libs/trace/storage/tables/gpu_tables.h"
#include "libs/trace/storage/tables/heap_graph_tables.h"
#include "libs/trace/storage/tables/process_tables.h"
#include "libs/trace/storage/tables/profiler_tables.h"
#include "libs/trace/storage/tables/sched_tables.h"
#include "libs/trace/storage/tables/track_tables.h"
#include "libs/trace/storage/tables/winscope_tables.h"

namespace tw {

using OptI64 = std::optional<int64_t>;
using OptU32 = std::optional<uint32_t>;
using OptI32 = std::optional<int32_t>;

}  // namespace tw

// Every table of a trace, in registration order.
#define TW_TRACE_TABLES(X)                 \
  X(TW_PROCESS_TABLE)                      \
  X(TW_THREAD_TABLE)                       \
  X(TW_CPU_TABLE)                          \
  X(TW_CPU_FREQ_TABLE)                     \
  X(TW_SCHED_SLICE_TABLE)                  \
  X(TW_THREAD_STATE_TABLE)                 \
  X(TW_TRACK_TABLE)                        \
  X(TW_SLICE_TABLE)                        \
  X(TW_COUNTER_TABLE)                      \
  X(TW_STATE_TABLE)                        \
  X(TW_FLOW_TABLE)                         \
  X(TW_STACK_PROFILE_MAPPING_TABLE)        \
  X(TW_STACK_PROFILE_FRAME_TABLE)          \
  X(TW_STACK_PROFILE_CALLSITE_TABLE)       \
  X(TW_STACK_PROFILE_SYMBOL_TABLE)         \
  X(TW_CPU_PROFILE_STACK_SAMPLE_TABLE)     \
  X(TW_TRACK_EVENT_CALLSTACKS_TABLE)       \
  X(TW_PERF_SESSION_TABLE)                 \
  X(TW_PERF_SAMPLE_TABLE)                  \
  X(TW_PERF_SAMPLE_COUNTER_TABLE)          \
  X(TW_HEAP_GRAPH_TABLE)                   \
  X(TW_HEAP_GRAPH_CLASS_TABLE)             \
  X(TW_HEAP_GRAPH_OBJECT_TABLE)            \
  X(TW_HEAP_GRAPH_REFERENCE_TABLE)         \
  X(TW_HEAP_GRAPH_OBJECT_DATA_TABLE)       \
  X(TW_HEAP_GRAPH_PRIMITIVE_TABLE)         \
  X(TW_HEAP_GRAPH_THREAD_CALLSITE_TABLE)   \
  X(TW_HEAP_GRAPH_JAVA_OOME_DETAILS_TABLE) \
  X(TW_HEAP_PROFILE_TABLE)                 \
  X(TW_HEAP_PROFILE_ALLOCATION_TABLE)      \
  X(TW_ARG_TABLE)                          \
  X(TW_FTRACE_EVENT_TABLE)                 \
  X(TW_CHROME_RAW_TABLE)                   \
  X(TW_LOG_TABLE)                          \
  X(TW_METADATA_TABLE)                     \
  X(TW_STATS_TABLE)                        \
  X(TW_TRACE_DIAGNOSTICS_TABLE)            \
  X(TW_TRACE_IMPORT_LOGS_TABLE)            \
  X(TW_CLOCK_SNAPSHOT_TABLE)               \
  X(TW_MACHINE_TABLE)                      \
  X(TW_PACKAGE_LIST_TABLE)                 \
  X(TW_ANDROID_MOTION_EVENTS_TABLE)        \
  X(TW_ANDROID_KEY_EVENTS_TABLE)           \
  X(TW_ANDROID_INPUT_EVENT_DISPATCH_TABLE) \
  X(TW_ANDROID_USER_LIST_TABLE)            \
  X(TW_ANDROID_AFLAGS_TABLE)               \
  X(TW_ANDROID_CPU_PER_UID_TRACK_TABLE)    \
  X(TW_ANDROID_DUMPSTATE_TABLE)            \
  X(TW_ANDROID_NETWORK_PACKETS_TABLE)      \
  X(TW_LINUX_INTERRUPT_MAPPING_TABLE)      \
  X(TW_ANDROID_TRACK_EVENT_PROCESS_TABLE)  \
  X(TW_GPU_TABLE)                          \
  X(TW_GPU_COUNTER_GROUP_TABLE)            \
  X(TW_GPU_CONTEXT_TABLE)                  \
  X(TW_INPUTMETHOD_CLIENTS_TABLE)          \
  X(TW_INPUTMETHOD_MANAGER_SERVICE_TABLE)  \
  X(TW_INPUTMETHOD_SERVICE_TABLE)          \
  X(TW_SURFACEFLINGER_TRANSACTIONS_TABLE)  \
  X(TW_SURFACEFLINGER_TRANSACTION_TABLE)   \
  X(TW_SURFACEFLINGER_TRANSACTION_FLAG_TABLE) \
  X(TW_WINSCOPE_RECT_TABLE)                \
  X(TW_WINSCOPE_TRACE_RECT_TABLE)          \
  X(TW_WINSCOPE_TRANSFORM_TABLE)           \
  X(TW_WINSCOPE_FILL_REGION_TABLE)         \
  X(TW_SURFACEFLINGER_LAYERS_SNAPSHOT_TABLE) \
  X(TW_SURFACEFLINGER_DISPLAY_TABLE)       \
  X(TW_SURFACEFLINGER_LAYER_TABLE)         \
  X(TW_SHELL_TRANSITIONS_TABLE)            \
  X(TW_SHELL_TRANSITION_PARTICIPANTS_TABLE) \
  X(TW_SHELL_TRANSITION_PROTOS_TABLE)      \
  X(TW_SHELL_TRANSITION_HANDLERS_TABLE)    \
  X(TW_PROTOLOG_TABLE)                     \
  X(TW_VIEWCAPTURE_TABLE)                  \
  X(TW_VIEWCAPTURE_VIEW_TABLE)             \
  X(TW_VIEWCAPTURE_INTERNED_DATA_TABLE)    \
  X(TW_WINDOWMANAGER_TABLE)                \
  X(TW_WINDOWMANAGER_WINDOWCONTAINER_TABLE)
