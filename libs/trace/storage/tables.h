#pragma once
// The intrinsic tables of a loaded trace, with trace_processor's column names. SQL sees them as
// `__intrinsic_<name>` virtual tables; the public names (slice, thread, sched, ...) are views
// declared in query/prelude.sql, exactly as trace_processor layers them.

#include <cstdint>
#include <optional>

#include "libs/trace/storage/table.h"

namespace tw {

using OptI64 = std::optional<int64_t>;
using OptU32 = std::optional<uint32_t>;
using OptI32 = std::optional<int32_t>;

class ProcessTable : public Table {
 public:
  ProcessTable() : Table("process") { AddIdAlias("upid"); }
  IntColumn<int64_t> pid{this, "pid"};
  StringColumn name{this, "name"};
  IntColumn<int64_t> start_ts{this, "start_ts", true};
  IntColumn<int64_t> end_ts{this, "end_ts", true};
  IntColumn<uint32_t> parent_upid{this, "parent_upid", true};
  IntColumn<int64_t> uid{this, "uid", true};
  IntColumn<int64_t> android_appid{this, "android_appid", true};
  IntColumn<int64_t> android_user_id{this, "android_user_id", true};
  StringColumn cmdline{this, "cmdline"};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};
  IntColumn<uint32_t> machine_id{this, "machine_id", true};

  uint32_t Insert(int64_t p) {
    pid.Append(p);
    name.Append(kNullStringId);
    start_ts.Append(OptI64());
    end_ts.Append(OptI64());
    parent_upid.Append(OptU32());
    uid.Append(OptI64());
    android_appid.Append(OptI64());
    android_user_id.Append(OptI64());
    cmdline.Append(kNullStringId);
    arg_set_id.Append(OptU32());
    machine_id.Append(OptU32(0));  // the host machine
    return CommitRow();
  }
};

class ThreadTable : public Table {
 public:
  ThreadTable() : Table("thread") { AddIdAlias("utid"); }
  IntColumn<int64_t> tid{this, "tid"};
  StringColumn name{this, "name"};
  IntColumn<int64_t> start_ts{this, "start_ts", true};
  IntColumn<int64_t> end_ts{this, "end_ts", true};
  IntColumn<uint32_t> upid{this, "upid", true};
  IntColumn<int8_t> is_main_thread{this, "is_main_thread", true};
  IntColumn<int8_t> is_idle{this, "is_idle"};
  IntColumn<uint32_t> machine_id{this, "machine_id", true};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};

  uint32_t Insert(int64_t t) {
    tid.Append(t);
    name.Append(kNullStringId);
    start_ts.Append(OptI64());
    end_ts.Append(OptI64());
    upid.Append(OptU32());
    is_main_thread.Append(std::optional<int8_t>());
    is_idle.Append(int8_t{0});
    machine_id.Append(OptU32(0));  // the host machine
    arg_set_id.Append(OptU32());
    return CommitRow();
  }
};

class CpuTable : public Table {
 public:
  CpuTable() : Table("cpu") {}
  IntColumn<uint32_t> cpu{this, "cpu", true};
  IntColumn<uint32_t> cluster_id{this, "cluster_id"};
  StringColumn processor{this, "processor"};
  IntColumn<uint32_t> machine_id{this, "machine_id", true};
  IntColumn<int64_t> capacity{this, "capacity", true};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};

  uint32_t Insert(uint32_t c) {
    cpu.Append(c);
    cluster_id.Append(0u);
    processor.Append(kNullStringId);
    machine_id.Append(OptU32(0));  // the host machine
    capacity.Append(OptI64());
    arg_set_id.Append(OptU32());
    return CommitRow();
  }
};

class CpuFreqTable : public Table {
 public:
  CpuFreqTable() : Table("cpu_freq") {}
  IntColumn<uint32_t> ucpu{this, "ucpu"};
  IntColumn<uint32_t> freq{this, "freq"};
  uint32_t Insert(uint32_t c, uint32_t f) {
    ucpu.Append(c);
    freq.Append(f);
    return CommitRow();
  }
};

class SchedSliceTable : public Table {
 public:
  SchedSliceTable() : Table("sched_slice") {}
  IntColumn<int64_t> ts{this, "ts", false, kSorted};
  IntColumn<int64_t> dur{this, "dur"};
  IntColumn<uint32_t> utid{this, "utid"};
  StringColumn end_state{this, "end_state"};
  IntColumn<int32_t> priority{this, "priority"};
  IntColumn<uint32_t> ucpu{this, "ucpu"};

  uint32_t Insert(int64_t t, int64_t d, uint32_t u, StringId es, int32_t prio, uint32_t cpu) {
    ts.Append(t);
    dur.Append(d);
    utid.Append(u);
    end_state.Append(es);
    priority.Append(prio);
    ucpu.Append(cpu);
    return CommitRow();
  }
};

class ThreadStateTable : public Table {
 public:
  ThreadStateTable() : Table("thread_state") {}
  IntColumn<int64_t> ts{this, "ts"};
  IntColumn<int64_t> dur{this, "dur"};
  IntColumn<uint32_t> utid{this, "utid"};
  StringColumn state{this, "state"};
  IntColumn<int8_t> io_wait{this, "io_wait", true};
  StringColumn blocked_function{this, "blocked_function"};
  IntColumn<uint32_t> waker_utid{this, "waker_utid", true};
  IntColumn<uint32_t> waker_id{this, "waker_id", true};
  IntColumn<int8_t> irq_context{this, "irq_context", true};
  IntColumn<uint32_t> ucpu{this, "ucpu", true};

  uint32_t Insert(int64_t t, uint32_t u, StringId st, OptU32 cpu, OptU32 waker, OptU32 wid,
                  std::optional<int8_t> irq) {
    ts.Append(t);
    dur.Append(int64_t{-1});
    utid.Append(u);
    state.Append(st);
    io_wait.Append(std::optional<int8_t>());
    blocked_function.Append(kNullStringId);
    waker_utid.Append(waker);
    waker_id.Append(wid);
    irq_context.Append(irq);
    ucpu.Append(cpu);
    return CommitRow();
  }
};

// One table for every kind of track; the typed views (thread_track, counter_track, ...) select
// from it by `event_type` and the dimension columns.
class TrackTable : public Table {
 public:
  TrackTable() : Table("track") {}
  StringColumn name{this, "name"};
  StringColumn type{this, "type"};
  IntColumn<uint32_t> dimension_arg_set_id{this, "dimension_arg_set_id", true};
  IntColumn<uint32_t> parent_id{this, "parent_id", true};
  IntColumn<uint32_t> source_arg_set_id{this, "source_arg_set_id", true};
  IntColumn<uint32_t> machine_id{this, "machine_id", true};
  IntColumn<int64_t> track_group_id{this, "track_group_id", true};
  StringColumn event_type{this, "event_type"};  // 'slice' | 'counter' | 'state'
  StringColumn counter_unit{this, "counter_unit"};
  // Dimensions, denormalised so the typed views need no join with args.
  IntColumn<uint32_t> utid{this, "utid", true};
  IntColumn<uint32_t> upid{this, "upid", true};
  IntColumn<uint32_t> cpu{this, "cpu", true};

  uint32_t Insert(StringId n, StringId t, StringId ev) {
    name.Append(n);
    type.Append(t);
    dimension_arg_set_id.Append(OptU32());
    parent_id.Append(OptU32());
    source_arg_set_id.Append(OptU32());
    machine_id.Append(OptU32(0));  // the host machine
    track_group_id.Append(OptI64());
    event_type.Append(ev);
    counter_unit.Append(kNullStringId);
    utid.Append(OptU32());
    upid.Append(OptU32());
    cpu.Append(OptU32());
    return CommitRow();
  }
};

class SliceTable : public Table {
 public:
  SliceTable() : Table("slice") {}
  IntColumn<int64_t> ts{this, "ts"};
  IntColumn<int64_t> dur{this, "dur"};
  IntColumn<uint32_t> track_id{this, "track_id"};
  StringColumn category{this, "category"};
  StringColumn name{this, "name"};
  IntColumn<uint32_t> depth{this, "depth"};
  IntColumn<uint32_t> parent_id{this, "parent_id", true};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};
  IntColumn<int64_t> thread_ts{this, "thread_ts", true};
  IntColumn<int64_t> thread_dur{this, "thread_dur", true};
  IntColumn<int64_t> thread_instruction_count{this, "thread_instruction_count", true};
  IntColumn<int64_t> thread_instruction_delta{this, "thread_instruction_delta", true};

  uint32_t Insert(int64_t t, int64_t d, uint32_t track, StringId cat, StringId n, uint32_t dep,
                  OptU32 parent) {
    ts.Append(t);
    dur.Append(d);
    track_id.Append(track);
    category.Append(cat);
    name.Append(n);
    depth.Append(dep);
    parent_id.Append(parent);
    arg_set_id.Append(OptU32());
    thread_ts.Append(OptI64());
    thread_dur.Append(OptI64());
    thread_instruction_count.Append(OptI64());
    thread_instruction_delta.Append(OptI64());
    return CommitRow();
  }
};

class CounterTable : public Table {
 public:
  CounterTable() : Table("counter") {}
  IntColumn<int64_t> ts{this, "ts"};
  IntColumn<uint32_t> track_id{this, "track_id"};
  DoubleColumn value{this, "value"};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};
  uint32_t Insert(int64_t t, uint32_t track, double v) {
    ts.Append(t);
    track_id.Append(track);
    value.Append(v);
    arg_set_id.Append(OptU32());
    return CommitRow();
  }
};

// Track-event "state" tracks (string-valued samples).
class StateTable : public Table {
 public:
  StateTable() : Table("state") {}
  IntColumn<int64_t> ts{this, "ts"};
  IntColumn<int64_t> dur{this, "dur"};
  IntColumn<uint32_t> track_id{this, "track_id"};
  StringColumn category{this, "category"};
  StringColumn value{this, "value"};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};
  uint32_t Insert(int64_t t, int64_t d, uint32_t track, StringId cat, StringId v) {
    ts.Append(t);
    dur.Append(d);
    track_id.Append(track);
    category.Append(cat);
    value.Append(v);
    arg_set_id.Append(OptU32());
    return CommitRow();
  }
};

class FlowTable : public Table {
 public:
  FlowTable() : Table("flow") {}
  IntColumn<uint32_t> slice_out{this, "slice_out"};
  IntColumn<uint32_t> slice_in{this, "slice_in"};
  IntColumn<int64_t> trace_id{this, "trace_id", true};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};
  uint32_t Insert(uint32_t out, uint32_t in, OptI64 trace) {
    slice_out.Append(out);
    slice_in.Append(in);
    trace_id.Append(trace);
    arg_set_id.Append(OptU32());
    return CommitRow();
  }
};

class ArgTable : public Table {
 public:
  ArgTable() : Table("args") {}
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", false, kSorted};
  StringColumn flat_key{this, "flat_key"};
  StringColumn key{this, "key"};
  IntColumn<int64_t> int_value{this, "int_value", true};
  StringColumn string_value{this, "string_value"};
  DoubleColumn real_value{this, "real_value", true};
  StringColumn value_type{this, "value_type"};
};

class FtraceEventTable : public Table {
 public:
  FtraceEventTable() : Table("ftrace_event") {}
  IntColumn<int64_t> ts{this, "ts"};
  StringColumn name{this, "name"};
  IntColumn<uint32_t> utid{this, "utid"};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};
  IntColumn<uint32_t> common_flags{this, "common_flags"};
  IntColumn<uint32_t> ucpu{this, "ucpu"};
  uint32_t Insert(int64_t t, StringId n, uint32_t cpu, uint32_t u, OptU32 args, uint32_t flags) {
    ts.Append(t);
    name.Append(n);
    utid.Append(u);
    arg_set_id.Append(args);
    common_flags.Append(flags);
    ucpu.Append(cpu);
    return CommitRow();
  }
};

class LogTable : public Table {
 public:
  LogTable() : Table("logs") {}
  IntColumn<int64_t> ts{this, "ts"};
  IntColumn<uint32_t> utid{this, "utid", true};
  IntColumn<uint32_t> prio{this, "prio"};
  StringColumn log_source{this, "log_source"};
  StringColumn tag{this, "tag"};
  StringColumn msg{this, "msg"};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};
};

class MetadataTable : public Table {
 public:
  MetadataTable() : Table("metadata") {}
  StringColumn name{this, "name"};
  StringColumn key_type{this, "key_type"};
  IntColumn<int64_t> int_value{this, "int_value", true};
  StringColumn str_value{this, "str_value"};
  IntColumn<uint32_t> machine_id{this, "machine_id", true};
  IntColumn<uint32_t> trace_id{this, "trace_id", true};
};

class StatsTable : public Table {
 public:
  StatsTable() : Table("stats") {}
  StringColumn name{this, "name"};
  IntColumn<int64_t> key{this, "key"};
  IntColumn<int64_t> idx{this, "idx", true};
  StringColumn severity{this, "severity"};
  StringColumn source{this, "source"};
  IntColumn<int64_t> value{this, "value"};
  StringColumn description{this, "description"};
  IntColumn<uint32_t> machine_id{this, "machine_id", true};
  IntColumn<uint32_t> trace_id{this, "trace_id", true};
};

class ClockSnapshotTable : public Table {
 public:
  ClockSnapshotTable() : Table("clock_snapshot") {}
  IntColumn<int64_t> ts{this, "ts"};
  IntColumn<int64_t> clock_id{this, "clock_id"};
  StringColumn clock_name{this, "clock_name"};
  IntColumn<int64_t> clock_value{this, "clock_value"};
  IntColumn<uint32_t> snapshot_id{this, "snapshot_id"};
  IntColumn<uint32_t> machine_id{this, "machine_id", true};
};

class MachineTable : public Table {
 public:
  MachineTable() : Table("machine") {}
  IntColumn<uint32_t> raw_id{this, "raw_id"};
  StringColumn sysname{this, "sysname"};
  StringColumn release{this, "release"};
  StringColumn version{this, "version"};
  StringColumn arch{this, "arch"};
  IntColumn<int64_t> num_cpus{this, "num_cpus", true};
  StringColumn android_build_fingerprint{this, "android_build_fingerprint"};
  StringColumn android_device_manufacturer{this, "android_device_manufacturer"};
  IntColumn<int64_t> android_sdk_version{this, "android_sdk_version", true};
  IntColumn<uint32_t> trace_id{this, "trace_id", true};
  StringColumn machine_name{this, "name"};
  IntColumn<int64_t> system_ram_bytes{this, "system_ram_bytes", true};
  IntColumn<int64_t> system_ram_gb{this, "system_ram_gb", true};

  uint32_t Insert(uint32_t raw) {
    raw_id.Append(raw);
    sysname.Append(kNullStringId);
    release.Append(kNullStringId);
    version.Append(kNullStringId);
    arch.Append(kNullStringId);
    num_cpus.Append(OptI64());
    android_build_fingerprint.Append(kNullStringId);
    android_device_manufacturer.Append(kNullStringId);
    android_sdk_version.Append(OptI64());
    trace_id.Append(OptU32());
    machine_name.Append(kNullStringId);
    system_ram_bytes.Append(OptI64());
    system_ram_gb.Append(OptI64());
    return CommitRow();
  }
};

// Android packages installed on the device (packages_list), one row per package name.
class PackageListTable : public Table {
 public:
  PackageListTable() : Table("package_list") {}
  StringColumn package_name{this, "package_name"};
  IntColumn<int64_t> uid{this, "uid"};
  IntColumn<int32_t> debuggable{this, "debuggable"};
  IntColumn<int32_t> profileable_from_shell{this, "profileable_from_shell"};
  IntColumn<int64_t> version_code{this, "version_code"};

  uint32_t Insert(StringId name, int64_t u, bool debug, bool profileable, int64_t version) {
    package_name.Append(name);
    uid.Append(u);
    debuggable.Append(debug ? 1 : 0);
    profileable_from_shell.Append(profileable ? 1 : 0);
    version_code.Append(version);
    return CommitRow();
  }
};

// Motion events InputDispatcher processed (android.input.inputevent), one row per event.
class AndroidMotionEventsTable : public Table {
 public:
  AndroidMotionEventsTable() : Table("android_motion_events") {}
  IntColumn<int64_t> event_id{this, "event_id"};
  IntColumn<int64_t> ts{this, "ts"};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};
  IntColumn<int64_t> source{this, "source"};
  IntColumn<int64_t> action{this, "action"};
  IntColumn<int64_t> device_id{this, "device_id"};
  IntColumn<int64_t> display_id{this, "display_id"};
};

// Key events InputDispatcher processed (android.input.inputevent), one row per event.
class AndroidKeyEventsTable : public Table {
 public:
  AndroidKeyEventsTable() : Table("android_key_events") {}
  IntColumn<int64_t> event_id{this, "event_id"};
  IntColumn<int64_t> ts{this, "ts"};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};
  IntColumn<int64_t> source{this, "source"};
  IntColumn<int64_t> action{this, "action"};
  IntColumn<int64_t> device_id{this, "device_id"};
  IntColumn<int64_t> display_id{this, "display_id"};
  IntColumn<int64_t> key_code{this, "key_code"};
};

// One row per input event dispatched to a window (android.input.inputevent).
class AndroidInputEventDispatchTable : public Table {
 public:
  AndroidInputEventDispatchTable() : Table("android_input_event_dispatch") {}
  IntColumn<int64_t> event_id{this, "event_id"};
  IntColumn<uint32_t> arg_set_id{this, "arg_set_id", true};
  IntColumn<int64_t> vsync_id{this, "vsync_id"};
  IntColumn<int64_t> window_id{this, "window_id"};
};

// The Android users (not Linux uids) the user_list data source saw, one row per user id.
class AndroidUserListTable : public Table {
 public:
  AndroidUserListTable() : Table("android_user_list") {}
  IntColumn<int64_t> android_user_id{this, "android_user_id"};
  StringColumn type{this, "type"};
};

// Per-process lifecycle from the Android framework's TrackEvents (process start, binder death).
class AndroidTrackEventProcessTable : public Table {
 public:
  AndroidTrackEventProcessTable() : Table("android_track_event_process") {}
  IntColumn<uint32_t> upid{this, "upid"};
  IntColumn<int64_t> start_seq_id{this, "start_seq_id", true};
  IntColumn<int64_t> package_uid{this, "package_uid", true};
  IntColumn<int64_t> caller_uid{this, "caller_uid", true};
  IntColumn<int64_t> defining_uid{this, "defining_uid", true};
  IntColumn<int64_t> fw_start_ts{this, "fw_start_ts", true};
  IntColumn<int64_t> fw_end_ts{this, "fw_end_ts", true};
  StringColumn trigger_type{this, "trigger_type"};
  StringColumn hosting_type{this, "hosting_type"};
  StringColumn hosting_name{this, "hosting_name"};
  IntColumn<int64_t> bind_application_delay_ms{this, "bind_application_delay_ms", true};
  IntColumn<int64_t> process_start_delay_ms{this, "process_start_delay_ms", true};

  uint32_t Insert(uint32_t u) {
    upid.Append(u);
    start_seq_id.Append(OptI64());
    package_uid.Append(OptI64());
    caller_uid.Append(OptI64());
    defining_uid.Append(OptI64());
    fw_start_ts.Append(OptI64());
    fw_end_ts.Append(OptI64());
    trigger_type.Append(kNullStringId);
    hosting_type.Append(kNullStringId);
    hosting_name.Append(kNullStringId);
    bind_application_delay_ms.Append(OptI64());
    process_start_delay_ms.Append(OptI64());
    return CommitRow();
  }
};

}  // namespace tw
