#pragma once
// The decoded events that flow from importers through the sorter to the trackers. Importers
// resolve everything that depends on packet/sequence state (interning, clocks, defaults) before
// an event enters the sorter, so an event is self-contained. Hot events (scheduling) are stored
// inline in 40 bytes; rare, large ones carry a heap payload owned by the event.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libs/trace/storage/string_pool.h"

namespace tw {

enum class EventType : uint8_t {
  kSchedSwitch,
  kSchedWaking,      // sched_waking and sched_wakeup* (the subtype says which)
  kTaskNewtask,
  kTaskRename,
  kProcessExit,      // sched_process_exit
  kProcessFree,      // sched_process_free
  kSchedBlockedReason,
  kCpuFrequency,
  kCpuIdle,
  kAtrace,           // a parsed atrace marker (from ftrace print or other sources)
  kFtraceRaw,        // any other ftrace event: lands in ftrace_event with its args
  kProcessTree,      // a process_tree packet
  kCounter,          // a generic counter sample on a described track
  kTrackEvent,       // a resolved TrackEvent
  kAndroidLog,
  kSysEnter,         // raw_syscalls sys_enter / sys_exit
  kSysExit,
  kIrqEnter,         // irq_handler_entry / _exit and softirq_entry / _exit
  kIrqExit,
  kSoftIrqEnter,
  kSoftIrqExit,
  kThreadName,       // a thread seen with a name (systrace lines name their task)
  kJsonEvent,        // a Chrome JSON trace event (JsonEventData)
  kV8CpuProfile,     // a legacy V8 CPU profile session, its callsites or a sample (V8CpuProfileData)
  kImportLog,        // a problem an importer logs with details (ImportLogData)
  kGlobalInstant,    // a zero-duration slice on a named global track (GlobalInstantData)
  kFrameTimeline,    // an Android FrameTimelineEvent start or end (FrameTimelineData)
  kAndroidInputEvent,  // an InputDispatcher motion/key event or window dispatch
  kGpuMemTotal,        // a GpuMemTotalEvent packet (GpuMemTotalData, inline)
  kAndroidProcessLifecycle,  // a framework process start / binder death (TrackEvent extension)
  kGraphicsFrameEvent,  // a SurfaceFlinger buffer event (GraphicsFrameEventData)
  kGpuEvent,            // GPU counters and GPU info (GpuEventData)
  kGpuStage,            // GPU render stages, logs, Vulkan API events, frequency (GpuStageData)
  kAndroidCpuPerUidTotals,  // cpu time per (uid, cluster) so far (AndroidCpuPerUidTotalsData)
  kWinscope,            // a winscope dump or entry (WinscopeData)
  kStateChange,         // a value on a state track known by type and dimensions (StateChangeData)
  kGlobalSlice,         // a slice begin / end on a global set of tracks, by cookie (GlobalSliceData)
  kProtoLog,            // a ProtoLog message or viewer config (ProtoLogData)
  kFtracePrint,         // a print ftrace event's ftrace_event row (FtracePrintData, inline)
  kPerfSample,          // a traced_perf sample, lost-records note or producer event (PerfSampleData)
  kGenericTaskState,    // generic kernel: one task's new state (GenericTaskData, inline; e.cpu)
  kGenericTaskRename,   // generic kernel: a task's new name (GenericTaskData, inline)
  kGenericProcessTree,  // generic kernel: processes and threads (GenericProcessTreeData)
  kHeapGraph,           // a part of an ART Java heap dump (HeapGraphPacketData)
  kArtProcessMetadata,  // the process of an ART heap dump, OOME details (ArtProcessMetadataData)
  kDeobfuscationMapping,  // obfuscated → readable Java names (DeobfuscationMappingData)
  kHeapProfile,         // a heapprofd ProfilePacket: frames, callstacks, dumps (HeapProfileData)
  kNetworkPacket,       // android.network_packets: a packet or an aggregate (NetworkPacketData)
};

// A typed argument value as trace_processor stores it in `args`.
struct ArgValue {
  enum class Type : uint8_t { kNull, kInt, kUint, kString, kReal, kPointer, kBool, kJson };
  Type type = Type::kNull;
  int64_t int_value = 0;
  double real_value = 0;
  StringId string_value = kNullStringId;

  static ArgValue Int(int64_t v) { return {Type::kInt, v, 0, kNullStringId}; }
  static ArgValue Uint(uint64_t v) { return {Type::kUint, static_cast<int64_t>(v), 0, kNullStringId}; }
  static ArgValue String(StringId v) { return {Type::kString, 0, 0, v}; }
  static ArgValue Real(double v) { return {Type::kReal, 0, v, kNullStringId}; }
  static ArgValue Pointer(uint64_t v) {
    return {Type::kPointer, static_cast<int64_t>(v), 0, kNullStringId};
  }
  static ArgValue Bool(bool v) { return {Type::kBool, v ? 1 : 0, 0, kNullStringId}; }
  static ArgValue Json(StringId v) { return {Type::kJson, 0, 0, v}; }
};

struct Arg {
  StringId flat_key = kNullStringId;
  StringId key = kNullStringId;
  ArgValue value;
};

// ---- inline payloads (hot path) ----

struct SchedSwitchData {
  int32_t prev_pid;
  int32_t next_pid;
  int16_t prev_prio;
  int16_t next_prio;
  StringId prev_comm;   // kNullStringId for compact_sched (no prev fields)
  StringId next_comm;
  int32_t prev_state;   // kernel task state bits (16 bits used)
};

struct SchedWakingData {
  int32_t pid;          // the woken thread
  int32_t target_cpu;
  int32_t prio;
  StringId comm;
  uint16_t common_flags;
  uint8_t subtype;      // 0 waking, 1 wakeup, 2 wakeup_new
  uint8_t has_common_flags;
  // A plain sched_waking whose payload is the usual (comm, pid, prio, [success,] target_cpu)
  // carries its ftrace_event row itself, so the decoder pushes no kFtraceRaw twin (a heap
  // payload per event): 1 without success, 2 with it (in `success`); 0 for any other payload.
  uint8_t raw_row = 0;
  uint8_t success = 0;
};

struct TaskData {
  int32_t pid;          // newtask: the child; rename/exit/free: the thread concerned
  int32_t tgid;         // exit: tgid when known (else -1)
  StringId comm;
  uint32_t clone_flags;
};

struct BlockedReasonData {
  int32_t pid;
  int32_t io_wait;     // -1 unknown
  StringId function;   // kNullStringId when unknown
};

struct SyscallData {
  int64_t number;
};

struct IrqData {
  int32_t number;  // irq number, or softirq vector
  int32_t ret;     // irq exit: 1 handled
  StringId name;   // irq entry: the handler's name
};

// GPU memory in use (GpuMemTotalEvent): on one GPU, by one process or (pid 0) by all.
struct GpuMemTotalData {
  uint32_t gpu_id;
  int32_t pid;
  uint64_t size;
};

// A generic kernel task event (GenericKernelTaskStateEvent / TaskRenameEvent); the cpu is the
// Event's. Tids are 64-bit: these kernels are not Linux and their ids need not fit a pid_t.
struct GenericTaskData {
  int64_t tid;
  StringId comm;   // kNullStringId when not given
  int32_t prio;
  int32_t state;   // GenericKernelTaskStateEvent.TaskStateEnum (task state events only)
};

// cpu_frequency / cpu_idle: `value` is the event's `state` field, `cpu` its `cpu_id`.
struct CpuCounterData {
  uint32_t cpu;
  uint32_t common_flags;  // for the ftrace_event row when Event::ftrace_row is set
  double value;
};

// A print ftrace event whose payload is the usual (ip, buf): its ftrace_event row (args ip as
// uint, buf as string, as the print descriptor decodes them) follows from these fields, so the
// decoder pushes this inline event instead of a heap kFtraceRaw twin. Atrace writes every
// marker through print, which makes it the most common generic ftrace event.
struct FtracePrintData {
  uint64_t ip;
  StringId buf;
  uint32_t common_flags;
};

struct AtraceData;

// An atrace marker with nothing beyond what its text says (no category, no args): a kAtrace
// event without a heap payload carries it inline; the event's pid is the writing thread.
// ToAtraceData gives the general form the trackers take.
struct AtraceMarkData {
  int64_t value;         // counter value or cookie
  int32_t tgid;          // from the marker; 0 if absent
  StringId name;
  StringId track_name;   // G/H/N/T forms
  char kind;             // B E C S F I N G H T
  inline AtraceData ToAtraceData(int32_t tid) const;
};

// ---- heap payloads (rare / variable size) ----

struct AtraceData {
  char kind;               // B E C S F I N G H T(track-aware counter)
  int32_t tid;             // the writing thread
  int32_t tgid;            // from the marker; 0 if absent
  StringId name = kNullStringId;
  StringId track_name = kNullStringId;  // G/H/N/T forms
  int64_t cookie = 0;
  double value = 0;
  bool has_cookie = false;
  StringId category = kNullStringId;
  std::vector<Arg> args;
};

AtraceData AtraceMarkData::ToAtraceData(int32_t tid) const {
  AtraceData a;
  a.kind = kind;
  a.tid = tid;
  a.tgid = tgid;
  a.name = name;
  a.track_name = track_name;
  a.cookie = value;
  a.value = static_cast<double>(value);
  return a;
}

struct FtraceRawData {
  uint32_t cpu;
  int32_t pid;
  uint32_t common_flags;
  StringId name;
  std::vector<Arg> args;
  // false: only for the trackers that read ftrace fields, not a row of ftrace_event (ftrace
  // text lines: trace_processor keeps only their sched_switch events there).
  bool in_table = true;
  // false: only the ftrace_event row; the trackers read a copy pushed at another time (events
  // carrying their own sample time, like thermal_exynos_acpm_bulk).
  bool to_trackers = true;
};

struct ProcessTreeData {
  struct Process {
    int32_t pid;
    int32_t ppid;
    std::optional<int64_t> uid;
    std::vector<std::string> cmdline;
    bool cmdline_is_comm = false;
    std::optional<bool> is_kthread;
    std::optional<int64_t> process_start_from_boot;
  };
  struct Thread {
    int32_t tid;
    int32_t tgid;
    std::optional<std::string> name;
  };
  std::vector<Process> processes;
  std::vector<Thread> threads;
};

struct CounterData {
  enum class Scope : uint8_t { kGlobal, kCpu, kProcess, kThread, kTrack };
  Scope scope = Scope::kGlobal;
  int64_t scope_id = 0;      // cpu / pid / tid / track uuid
  StringId name = kNullStringId;
  StringId unit = kNullStringId;
  StringId type = kNullStringId;  // trace_processor's track type (classification)
  double value = 0;
  std::vector<Arg> dimension_args;  // extra dimensions for the track (e.g. cpustat key)
  std::vector<Arg> args;            // args of the sample itself (counter.arg_set_id)
  std::vector<Arg> track_args;      // the track's source args, set when the track is created
  bool declare_only = false;        // create the track (a described meter) but add no sample
};

// One frame of a callstack a trace event carries. An inline frame names a function and maybe
// a source location; an interned frame (profiling Frame) is a function at a pc in a binary.
struct CallstackFrame {
  StringId function_name = kNullStringId;
  bool is_inline = false;
  // Inline frames.
  StringId source_file = kNullStringId;
  std::optional<uint32_t> line_number;
  // Interned frames: the pc relative to its mapping, and the mapping (binary) it is in.
  uint64_t rel_pc = 0;
  struct Mapping {
    StringId build_id = kNullStringId;  // hex
    StringId name = kNullStringId;      // its path
    uint64_t exact_offset = 0, start_offset = 0, start = 0, end = 0, load_bias = 0;
  };
  Mapping mapping;
};

// A TrackEvent packet (or a descriptor packet of the track_event family) resolved against its
// sequence: interned names, categories, debug annotations, sequence defaults, delta-encoded
// timestamps and incremental counters are already applied. What is left for the tracker is
// what depends on time-ordered state: threads, processes, tracks, open slices and flows.
struct TrackEventData {
  enum class Kind : uint8_t {
    kEvent,              // a TrackEvent
    kTrackDescriptor,    // a TrackDescriptor (the registry already holds its reservation)
    kThreadDescriptor,   // a legacy ThreadDescriptor packet
    kProcessDescriptor,  // a legacy ProcessDescriptor packet
  };
  Kind kind = Kind::kEvent;
  uint32_t sequence_id = 0;

  // ---- the sequence's thread (legacy ThreadDescriptor or thread TrackDescriptor) ----
  bool has_thread = false;
  int64_t pid = 0;
  int64_t tid = 0;

  // ---- kEvent ----
  uint32_t type = 0;                // TrackEvent.Type; 0 when absent
  bool has_type = false;
  uint64_t track_uuid = 0;          // the event's, else TrackEventDefaults', else 0
  bool has_track_uuid = false;      // set on the event itself (overrides fallback rules)
  StringId name = kNullStringId;
  StringId category = kNullStringId;
  double counter_value = 0;         // TYPE_COUNTER, absolute and scaled
  std::optional<int64_t> thread_ts;
  std::optional<int64_t> thread_instruction_count;
  std::vector<std::pair<uint64_t, double>> extra_counters;  // (track uuid, absolute value)
  std::vector<uint64_t> flow_ids;              // global flow ids (v2)
  std::vector<uint64_t> terminating_flow_ids;
  // GpuTrackEvent.gpu_correlation: render stage event ids this slice submitted / waits for.
  std::vector<uint64_t> gpu_submission_event_ids;
  std::vector<uint64_t> gpu_wait_event_ids;
  // Args in trace_processor's order. The tracker inserts log-message args at log_args_pos and
  // legacy_trace_source_id at source_id_args_pos (both depend on tracker state).
  std::vector<Arg> args;
  uint32_t log_args_pos = 0;
  uint32_t source_id_args_pos = 0;
  // The first debug annotation's string value: the name in 'M' (metadata) legacy events.
  StringId first_annotation_string = kNullStringId;
  // The keys of the arrays its debug annotations built ("debug.list"), usually none: an end
  // event's elements are numbered after its begin's, as one args inserter serves the slice.
  std::vector<StringId> annotation_array_keys;

  struct LogMessage {
    StringId body = kNullStringId;
    bool has_source_location = false;
    StringId file_name = kNullStringId;
    StringId function_name = kNullStringId;
    int64_t line_number = 0;
    std::optional<int32_t> prio;  // already mapped to Android log priority
  };
  std::optional<LogMessage> log_message;

  // TrackEvent.callstack (inline) or callstack_iid (interned), resolved against the sequence:
  // its frames, outermost first (empty: the event has none), and callstack_weight.
  std::vector<CallstackFrame> callstack;
  std::optional<double> callstack_weight;

  // TrackEvent.LegacyEvent, when present.
  struct Legacy {
    int32_t phase = 0;
    std::optional<int64_t> duration_ns;
    std::optional<int64_t> thread_duration_ns;
    std::optional<int64_t> thread_instruction_delta;
    std::optional<uint64_t> unscoped_id;
    std::optional<uint64_t> global_id;
    std::optional<uint64_t> local_id;
    StringId id_scope = kNullStringId;
    std::optional<uint64_t> bind_id;
    bool bind_to_enclosing = false;
    bool use_async_tts = false;
    std::optional<uint32_t> flow_direction;
    uint32_t instant_event_scope = 0;
    std::optional<int32_t> pid_override;
    std::optional<int32_t> tid_override;
  };
  std::optional<Legacy> legacy;

  // ---- kTrackDescriptor / kThreadDescriptor / kProcessDescriptor ----
  uint64_t descriptor_uuid = 0;
  struct ThreadInfo {
    int64_t pid = 0;
    int64_t tid = 0;
    StringId name = kNullStringId;
    bool is_sandboxed = false;
  };
  struct ProcessInfo {
    int64_t pid = 0;
    StringId name = kNullStringId;
    std::optional<int64_t> start_timestamp_ns;
    std::vector<StringId> labels;
  };
  struct ChromeProcessInfo {
    StringId host_app_package_name = kNullStringId;
    std::optional<uint64_t> crash_trace_id;
  };
  std::optional<ThreadInfo> thread;
  std::optional<ProcessInfo> process;
  std::optional<ChromeProcessInfo> chrome_process;
};

struct AndroidLogData {
  int32_t pid;
  int32_t tid;
  uint32_t prio;
  StringId tag;
  StringId msg;
  std::vector<Arg> args;
};

// One Chrome JSON trace event ("traceEvents" element), decoded by the JSON importer. Only what
// needs time-ordered state is left to the tracker: which thread/process/track, open slices,
// flows. Phase-specific args are already read: counter values ('C'), names and sort indexes
// ('M'), thread state fields ('T'); `args` holds the flattened "args.*" of slice phases.
struct JsonEventData {
  enum class Scope : uint8_t { kNone, kGlobal, kProcess, kThread };  // "s" of instants

  char phase = 0;
  // Events of one timestamp are ordered by phase ('E' first, then 'X' longest first) once the
  // trace has shown an 'X' event, as trace_processor's sorter does; set by the importer.
  bool order_by_phase = false;
  bool pid_exists = false;
  bool tid_exists = false;
  uint32_t pid = 0;
  uint32_t tid = 0;                    // the pid when "tid" is absent
  StringId pid_name = kNullStringId;   // "pid" given as a string: the process is named so
  StringId tid_name = kNullStringId;   // "tid" given as a string: the thread is named so
  StringId name = kNullStringId;
  StringId category = kNullStringId;
  std::optional<int64_t> dur;          // ns
  std::optional<int64_t> thread_ts;    // "tts", ns
  std::optional<int64_t> thread_dur;   // "tdur", ns
  Scope scope = Scope::kNone;

  // Nestable async ('b'/'e'/'n'): the id ("id", else "id2") hashed with the category.
  std::optional<int64_t> async_cookie;
  bool async_process_scoped = false;   // from id2.local
  // Flows: v1 phases use "id" (hex string or integer); v2 use "bind_id" + flow_in/flow_out.
  std::optional<uint64_t> flow_v1_id;  // nullopt: absent or not a flow id
  std::optional<uint64_t> bind_id;     // nullopt: absent or not a flow id
  bool flow_in = false;
  bool flow_out = false;
  bool bind_enclosing_slice = false;   // "bp": "e"

  std::vector<Arg> args;               // "args.*" (slice phases only)

  // 'C': one sample per numeric field of "args", named "<name>[ id: <id>] <field>".
  std::vector<std::pair<StringId, double>> counters;
  bool counter_args_missing = false;   // no "args" object at all

  // 'M': thread_name / process_name carry a name, *_sort_index an index.
  StringId metadata_value = kNullStringId;
  std::optional<int64_t> sort_index;

  // 'T' (thread state with a duration): fields of "args".
  std::optional<uint32_t> cpu;
  std::optional<int64_t> io_wait;
  StringId blocked_function = kNullStringId;
};

// A problem an importer met that trace_processor logs with details (a trace_import_logs row
// and its args, counted in `stat`): e.g. the raw text of a JSON event that could not be read
// and why. Pushed at INT64_MIN so the logs keep file order, ahead of the events.
struct ImportLogData {
  std::string stat;
  std::optional<int64_t> log_ts;  // when the problem happened, if known
  std::vector<Arg> args;
};

// Chrome JSON's legacy V8 CPU profiles ('P' events "Profile" / "ProfileChunk"). The importer
// checks the profile's node tree and works out sample times, as trace_processor's tokenizer
// does; the tracker makes the rows. A profile is identified by (session id, pid).
struct V8CpuProfileData {
  enum class Kind : uint8_t {
    kSession,  // the profile starts: a placeholder mapping for its frames
    kNodes,    // callsites defined by a chunk, in order (pushed before any sample)
    kSample,   // the thread `tid` was running node `node_id` at the event's time
  };
  struct Node {
    uint32_t id = 0;
    // Set: only the frame is interned (the node was rejected after that, as trace_processor
    // rejects it).
    bool frame_only = false;
    // Set: not a new node but a re-parenting of an existing one, named as a child by `parent`.
    bool reparent = false;
    std::optional<uint32_t> parent;  // the parent node (resolved from "children" if needed)
    uint32_t depth = 0;
    StringId function_name = kNullStringId;
    StringId url = kNullStringId;  // the script; null when absent or empty
  };
  Kind kind = Kind::kSample;
  uint64_t session_id = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint32_t node_id = 0;
  std::vector<Node> nodes;
};

// A PerfSample packet (traced_perf's sampling of a timebase counter with follower counters
// and, if asked, callstacks), resolved against its sequence: the callstack's frames and the
// names of the counters the sequence's PerfSampleDefaults configured. The tracker keeps one
// perf session per sequence and one counter track per (session, cpu, counter).
struct PerfSampleData {
  enum class Kind : uint8_t {
    kSample,         // a sample: counter values, and the thread and callstack when recorded
    kRecordsLost,    // not a sample: the kernel's ring buffer for `cpu` lost `records_lost`
    kProducerEvent,  // not a sample: a note from the producer (`guardrail_stop`: it stopped)
  };
  // What the sequence's PerfSampleDefaults say about the stream: its counters, named as perf
  // names them ("cpu-clock", "instructions:u"). Absent defaults mean an old producer (Android
  // R / early S) whose timebase is the per-cpu timer.
  struct Stream {
    StringId timebase = kNullStringId;
    std::vector<StringId> followers;
    std::optional<uint32_t> process_shard_count;
    uint32_t chosen_process_shard = 0;
  };
  Kind kind = Kind::kSample;
  uint32_t sequence_id = 0;
  std::shared_ptr<const Stream> stream;  // shared by the samples of one sequence
  std::optional<uint32_t> cpu;
  uint32_t pid = 0, tid = 0;
  uint64_t records_lost = 0;
  bool guardrail_stop = false;
  StringId cpu_mode = kNullStringId;      // null: unknown
  StringId unwind_error = kNullStringId;  // null: none
  std::optional<uint64_t> timebase_count;
  std::vector<uint64_t> follower_counts;
  // The callstack (outermost frame first) when the sample carried a resolvable callstack_iid;
  // null otherwise. Samples of one interned callstack share it (resolved once per sequence
  // generation), so the sorter holds each distinct callstack once.
  std::shared_ptr<const std::vector<CallstackFrame>> callstack;
};

// A heapprofd ProfilePacket resolved against its sequence. A profile may span several packets
// (`continued`); the frames and callstacks the packets define are theirs alone (not the
// sequence's InternedData) and are interned into stack_profile rows in the order the packets
// define them, as trace_processor does. The dumps' allocations are cumulative per callstack;
// the tracker turns them into deltas when the profile's last packet arrives.
struct HeapProfileData {
  struct Callstack {
    uint64_t iid = 0;
    std::vector<CallstackFrame> frames;  // outermost first; never empty
  };
  struct Sample {
    uint64_t callstack_iid = 0;
    // The callstack from the sequence's InternedData, when no packet of the profile defined
    // `callstack_iid` (newer heapprofd interns them there); null when neither did.
    std::shared_ptr<const std::vector<CallstackFrame>> interned_callstack;
    uint64_t self_allocated = 0, self_freed = 0, alloc_count = 0, free_count = 0;
  };
  struct Dump {
    uint32_t pid = 0;
    StringId heap_name = kNullStringId;  // null: the producer named none (an older heapprofd)
    int64_t window_start = 0, window_end = 0;  // trace time; equal without a start timestamp
    bool disconnected = false, buffer_corrupted = false, buffer_overran = false;
    bool rejected_concurrent = false, hit_guardrail = false;
    uint64_t client_error = 0;
    uint64_t sampling_interval_bytes = 0, orig_sampling_interval_bytes = 0;
    uint64_t unwinding_time_us = 0, heap_samples = 0, client_spinlock_blocked_us = 0;
    std::vector<Sample> samples;
  };
  uint32_t sequence_id = 0;
  uint32_t generation = 0;  // the sequence's incremental-state generation: a new one resets
  std::vector<CallstackFrame> frames;    // the frames this packet defines, in order
  std::vector<Callstack> callstacks;     // the callstacks it defines, in order
  std::vector<Dump> dumps;
  bool continued = false;  // more packets of this profile follow
};

// A zero-duration slice on a global track known by name and type, e.g. trace triggers on
// "Trace Triggers" (type "triggers").
struct GlobalInstantData {
  StringId track_name = kNullStringId;
  std::string track_type;
  // What tells tracks of the type apart, when the name alone does not (e.g. battery_stats
  // event tracks by bstats_item_name); empty: one track per type.
  std::vector<Arg> dimensions;
  StringId name = kNullStringId;
  std::vector<Arg> args;
};

// A slice that begins or ends on a global set of interchangeable tracks, all named `track_name`
// and of type `track_type` (trace_processor's track compressor): slices open at the same time,
// told apart by `cookie`, go on separate tracks of the set; e.g. Android wake locks from a
// battery stats dump on "WakeLocks".
struct GlobalSliceData {
  enum class Phase : uint8_t { kBegin, kEnd };
  Phase phase = Phase::kBegin;
  StringId track_name = kNullStringId;
  std::string track_type;
  int64_t cookie = 0;
  StringId name = kNullStringId;  // for kBegin
};

// One event of the android.network_packets data source: a single packet (dur 0, count 1) or
// an aggregate of packets sharing one context (interface, direction, socket, protocol, ports).
struct NetworkPacketData {
  int64_t dur = 0;
  int64_t length = 0;  // bytes on the wire, all packets together
  int64_t count = 1;
  std::string iface;
  uint32_t direction = 0;  // TrafficDirection: 1 ingress, 2 egress, else unspecified
  uint32_t uid = 0;
  uint32_t tag = 0;
  uint32_t ip_proto = 0;
  std::optional<uint32_t> tcp_flags, local_port, remote_port, icmp_type, icmp_code;
};

// A state track (track.type `track_type`, identified by `dimensions`, named `track_name` when
// created) takes `value` from the event's time until its next change; e.g. a tracing session's
// lifecycle on a "concurrent_tracing_sessions" track. `terminal` states end where they begin
// (a zero-length row marking the end).
struct StateChangeData {
  std::string track_type;
  std::vector<Arg> dimensions;
  StringId track_name = kNullStringId;
  StringId value = kNullStringId;
  std::vector<Arg> args;
  bool terminal = false;
};

// One FrameTimelineEvent (SurfaceFlinger's expected/actual frame timelines). The importer has
// already turned enums and bitmasks into trace_processor's strings and built the slice args;
// the tracker pairs starts and ends by cookie and chooses tracks.
struct FrameTimelineData {
  enum class Kind : uint8_t {
    kExpectedDisplayFrame,
    kActualDisplayFrame,
    kExpectedSurfaceFrame,
    kActualSurfaceFrame,
    kFrameEnd,
  };
  Kind kind = Kind::kFrameEnd;
  int64_t cookie = 0;
  int64_t token = 0;                 // the frame's own token (display or surface)
  int64_t display_frame_token = 0;   // surface frames: the display frame they are shown in
  int32_t pid = 0;
  StringId name = kNullStringId;     // the token as text, the slice name
  std::vector<Arg> args;
};

// One AndroidInputEvent (android.input.inputevent data source): a motion or key event as
// InputDispatcher processed it, or its dispatch to one window. `args` is the whole message
// flattened as trace_processor's proto-to-args does ("pointer[0].axis_value[1].value").
struct AndroidInputEventData {
  enum class Kind : uint8_t { kMotion, kKey, kWindowDispatch };
  Kind kind = Kind::kMotion;
  int64_t event_id = 0;
  int64_t source = 0;      // motion/key
  int64_t action = 0;      // motion/key
  int64_t device_id = 0;   // motion/key
  int64_t display_id = 0;  // motion/key
  int64_t key_code = 0;    // key
  int64_t vsync_id = 0;    // window dispatch
  int64_t window_id = 0;   // window dispatch
  std::vector<Arg> args;
  StringId base64_proto = kNullStringId;  // the event's proto, base64-encoded
};

// The Android framework's process lifecycle TrackEvent extensions (frameworks/base
// AndroidProcessStartEvent and AndroidBinderDiedEvent), with enums already named.
struct AndroidProcessLifecycleData {
  bool is_start = true;  // false: binder died
  int64_t pid = 0;
  std::optional<int64_t> uid;
  StringId process_name = kNullStringId;
  std::optional<int64_t> start_seq_id;
  std::optional<int64_t> package_uid;
  std::optional<int64_t> caller_uid;
  std::optional<int64_t> defining_uid;
  StringId trigger_type = kNullStringId;
  StringId hosting_type = kNullStringId;
  StringId hosting_name = kNullStringId;
  std::optional<int64_t> bind_application_delay_ms;
  std::optional<int64_t> process_start_delay_ms;
};

// One GraphicsFrameEvent.BufferEvent (SurfaceFlinger's buffer lifecycle of a layer).
struct GraphicsFrameEventData {
  uint32_t buffer_id = 0;
  std::optional<uint32_t> type;  // BufferEventType; nullopt when absent
  uint32_t frame_number = 0;
  bool has_layer_name = false;
  StringId layer_name = kNullStringId;
  std::string layer_name_text;
  int64_t duration_ns = 0;
};

// The cpu time each (uid, cluster) of the cpu_per_uid data source accrued during the trace,
// after its last sample: rows of android_cpu_per_uid_track.
struct AndroidCpuPerUidTotalsData {
  struct Row {
    uint32_t uid;
    uint32_t cluster;
    int64_t total_cpu_millis;
  };
  std::vector<Row> rows;
};

// GPU data sources (gpu_counter_event, gpu_info). Counter descriptors are pushed at the start
// of time (trace_processor reads them while tokenizing, before any sample is sorted) so every
// sample finds its track.
struct GpuEventData {
  enum class Kind : uint8_t { kCounterDescriptor, kCounterSamples, kGpuInfo };
  Kind kind = Kind::kCounterSamples;
  // Which descriptor samples refer to: an interned one (sequence, iid) or the legacy inline
  // descriptors, whose counter ids are global to the trace.
  bool interned = false;
  uint32_t sequence_id = 0;
  uint32_t generation = 0;  // of the sequence's incremental state
  uint64_t iid = 0;
  int64_t gpu_id = 0;

  struct Spec {
    uint32_t counter_id = 0;
    StringId name = kNullStringId;
    StringId description = kNullStringId;
    StringId unit = kNullStringId;
    bool forwards_looking = false;
    std::vector<int64_t> groups;  // GpuCounterGroup values; none: UNCLASSIFIED
  };
  struct Group {
    int64_t group_id = 0;
    StringId name = kNullStringId;
    StringId description = kNullStringId;
    std::vector<uint32_t> counter_ids;
  };
  std::vector<Spec> specs;    // kCounterDescriptor
  std::vector<Group> groups;  // kCounterDescriptor: the descriptor's counter_groups
  std::vector<std::pair<uint32_t, double>> samples;  // kCounterSamples: (counter_id, value)

  // kGpuInfo: one GPU's identity.
  StringId name = kNullStringId, vendor = kNullStringId, model = kNullStringId,
           architecture = kNullStringId, uuid = kNullStringId, pci_bdf = kNullStringId;
  std::vector<Arg> args;  // extra_info
};

// One winscope packet (Android window-system tracing), already turned into args by reflection
// over the schema; the tracker stores the rows.
struct WinscopeData {
  enum class Kind : uint8_t {
    kInputMethodClients,
    kInputMethodManagerService,
    kInputMethodService,
    kSurfaceFlingerTransactions,
    kShellTransition,
    kShellHandlerMappings,
    kViewCapture,
    kWindowManager,
    kSurfaceFlingerLayers,
  };
  Kind kind = Kind::kInputMethodClients;
  StringId proto = kNullStringId;  // the raw message, base64
  std::vector<Arg> args;
  std::optional<int64_t> vsync_id;

  // kSurfaceFlingerTransactions: one row per change, in trace_processor's order.
  struct Change {
    StringId type = kNullStringId;   // LAYER_ADDED, LAYER_CHANGED, DISPLAY_ADDED, NOOP, ...
    StringId proto = kNullStringId;
    std::optional<std::vector<Arg>> args;
    std::optional<int64_t> transaction_id;
    std::optional<uint32_t> pid, uid, layer_id, display_id;
    std::optional<uint64_t> what;  // the change bitset, named by the flags table
    bool display_what = false;     // `what` of a DisplayState rather than a LayerState
  };
  std::vector<Change> changes;

  // kShellTransition: one packet's part of a transition (parts arrive in several packets).
  struct Rect {
    double x = 0, y = 0, w = 0, h = 0;
  };
  struct Participant {
    std::optional<uint32_t> layer_id, window_id, mode, flags, start_display_id, end_display_id,
        start_rotation, end_rotation;
    std::optional<Rect> start_bounds, end_bounds;
  };
  struct Transition {
    int64_t id = 0;
    std::optional<uint32_t> type, flags;
    std::optional<int64_t> send_time, dispatch_time, shell_abort_time, wm_abort_time,
        finish_time, merge_time, create_time, handler;
    std::optional<int64_t> start_transaction_id, finish_transaction_id;
    std::vector<Participant> participants;
  };
  Transition transition;
  // kShellHandlerMappings: (handler id, name).
  std::vector<std::pair<int64_t, StringId>> handlers;

  // kViewCapture: the snapshot's package and window (args and proto above) and its views.
  StringId package_name = kNullStringId, window_name = kNullStringId;
  struct View {
    StringId proto = kNullStringId;
    std::vector<Arg> args;
    uint32_t node_id = 0, hashcode = 0, parent_id = 0;
    bool is_visible = false;
    StringId class_name = kNullStringId, view_id = kNullStringId;
    // Where the view is drawn (set for views reachable from the root): its bounds in window
    // coordinates, tree depth and alpha.
    std::optional<Rect> bounds;
    uint32_t depth = 0;
    double alpha = 0;
  };
  std::vector<View> views;
  // Interned strings the snapshot and its views used: (raw proto, flat key, iid, string).
  struct Deinterned {
    StringId proto;
    StringId flat_key;
    int64_t iid;
    StringId value;
  };
  std::vector<Deinterned> deinterned;

  // kWindowManager.
  uint32_t focused_display_id = 0;
  bool has_invalid_elapsed_ts = false;  // also kSurfaceFlingerLayers

  // A rect as winscope draws it (winscope_trace_rect), with the geometry it is drawn with.
  struct Transform {
    double dsdx = 1, dtdx = 0, tx = 0, dtdy = 0, dsdy = 1, ty = 0;
  };
  struct TraceRect {
    Rect rect;
    uint32_t group_id = 0, depth = 0;
    bool is_spy = false, is_visible = false;
    std::optional<double> opacity;
    std::optional<Transform> transform;
    std::optional<double> border_width;
    std::optional<uint32_t> border_color;
    // Input windows: the region that takes touches (winscope_fill_region), if known.
    std::optional<std::vector<Rect>> fill_region;
  };
  // kSurfaceFlingerLayers: a layers snapshot's displays and layers, and the rects computed for
  // its layers in the order they were computed (ids are assigned in that order).
  struct SfDisplay {
    bool is_on = false, is_virtual = false;
    int64_t display_id = 0;
    StringId name = kNullStringId;
    TraceRect rect;
  };
  struct SfLayer {
    StringId proto = kNullStringId;
    std::vector<Arg> args;
    std::optional<int64_t> layer_id, parent, hwc_composition_type, z_order_relative_of;
    StringId name = kNullStringId;
    double corner_radius_tl = 0, corner_radius_tr = 0, corner_radius_bl = 0,
           corner_radius_br = 0;
    bool is_visible = false, is_hidden_by_policy = false, is_missing_z_parent = false;
    std::optional<size_t> layer_rect, input_rect;  // indexes into SfSnapshot::layer_rects
  };
  struct SfSnapshot {
    uint32_t sequence_id = 0;
    std::vector<SfDisplay> displays;
    std::vector<TraceRect> layer_rects;
    std::vector<SfLayer> layers;
  };
  std::unique_ptr<SfSnapshot> sf_snapshot;

  // kWindowManager: the dump's window containers in hierarchy order (empty when the hierarchy
  // could not be read). Each keeps its own message without its children (proto, args).
  struct WmContainer {
    StringId proto = kNullStringId, title = kNullStringId, type = kNullStringId,
             name_override = kNullStringId;
    std::vector<Arg> args;
    int32_t token = 0;
    std::optional<int32_t> parent_token;
    std::optional<uint32_t> child_index;
    bool is_visible = false;
    std::optional<TraceRect> rect;
  };
  std::vector<WmContainer> wm_containers;
};

struct EventPayload {
  virtual ~EventPayload() = default;
};
template <typename T>
struct PayloadOf : EventPayload {
  explicit PayloadOf(T v) : data(std::move(v)) {}
  T data;
};

// One sortable event: 48 bytes plus, for rare kinds, an owned heap payload.
struct Event {
  int64_t ts = 0;
  uint32_t seq = 0;        // push order; ties on ts keep file order
  int32_t pid = -1;        // ftrace: the event's common pid (the running thread); else -1
  EventType type = EventType::kSchedSwitch;
  uint8_t compact = 0;     // 1: from compact_sched (no common pid)
  uint16_t cpu = 0;
  // 1: the trackers write this event's ftrace_event row from its typed fields; the decoder
  // pushed no kFtraceRaw twin (which would cost a heap payload per event). Set only for
  // payloads whose args the typed fields fully determine (cpu_idle, cpu_frequency).
  uint8_t ftrace_row = 0;
  // 1: `payload` points at a heap object this event owns (set by WithPayload only), so
  // Release() needs no list of which types carry one.
  uint8_t owns_payload = 0;
  // The machine whose data this is (machine.id; 0 is the host), for traces that hold remote
  // machines' packets (TracePacket.machine_id). Rows 255 and above share 255.
  uint8_t machine = 0;
  // 1: a Perfetto ftrace event (pushed to a cpu queue), subject to FtraceDropWindow.
  uint8_t from_ftrace = 0;
  union {
    SchedSwitchData sched_switch;
    SchedWakingData sched_waking;
    TaskData task;
    BlockedReasonData blocked;
    CpuCounterData cpu_counter;
    SyscallData syscall;
    IrqData irq;
    GpuMemTotalData gpu_mem_total;
    GenericTaskData generic_task;
    FtracePrintData print;
    AtraceMarkData atrace_mark;
    EventPayload* payload;
  };

  Event() : payload(nullptr) {}

  template <typename T>
  static Event WithPayload(int64_t ts, EventType type, T data) {
    Event e;
    e.ts = ts;
    e.type = type;
    e.payload = new PayloadOf<T>(std::move(data));
    e.owns_payload = 1;
    return e;
  }
  template <typename T>
  T& As() const {
    return static_cast<PayloadOf<T>*>(payload)->data;
  }
  // Frees the heap payload, if any. The sorter calls this after the trackers saw the event.
  void Release() {
    if (owns_payload) {
      delete payload;
      payload = nullptr;
      owns_payload = 0;
    }
  }
};

static_assert(sizeof(Event) <= 48, "Event must stay small: it is buffered per sched event");

}  // namespace tw
