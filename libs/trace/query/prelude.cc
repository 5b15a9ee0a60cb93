#include "libs/trace/query/prelude.h"

namespace tw {

// Column names and order are trace_processor's (its prelude and table definitions are the
// reference); the SQL is ours. Views rather than materialised tables: they cost nothing at load
// and SQLite flattens them, so filters and joins still reach the intrinsic tables' indexes.
//
// Our TrackTable denormalises a track's dimensions into utid / upid / cpu columns and its kind
// into event_type ('slice', 'counter', 'state'); the typed track views select on those instead of
// joining args as trace_processor does.
//
// Columns our storage does not have yet are NULL literals (machine.name, system_ram_bytes,
// system_ram_gb).
std::string_view PreludeSql() {
  static constexpr std::string_view kSql = R"sql(
-- Casts as trace_processor's prelude spells them (difftests and stdlib SQL use them).
CREATE PERFETTO MACRO cast_int(value Expr) RETURNS Expr AS CAST($value AS INT);
CREATE PERFETTO MACRO cast_double(value Expr) RETURNS Expr AS CAST($value AS REAL);
CREATE PERFETTO MACRO cast_string(value Expr) RETURNS Expr AS CAST($value AS TEXT);

------------------------------------------------------------------------------ trace-wide facts

CREATE PERFETTO VIEW trace_bounds(start_ts TIMESTAMP, end_ts TIMESTAMP) AS
SELECT trace_start() AS start_ts, trace_end() AS end_ts;

CREATE PERFETTO VIEW metadata(
  id ID, name STRING, key_type STRING, int_value LONG, str_value STRING,
  machine_id JOINID(machine.id), trace_id LONG
) AS
SELECT id, name, key_type, int_value, str_value, machine_id, trace_id
FROM __intrinsic_metadata;

CREATE PERFETTO VIEW stats(
  id ID, name STRING, key LONG, idx LONG, severity STRING, source STRING, value LONG,
  description STRING, machine_id JOINID(machine.id), trace_id LONG
) AS
SELECT id, name, key, idx, severity, source, value, description, machine_id, trace_id
FROM __intrinsic_stats;

-- label_index numbers the non-host machines 1, 2, ... in id order; the host (raw_id 0) is 0.
CREATE PERFETTO VIEW machine(
  id ID, raw_id LONG, name STRING, sysname STRING, release STRING, version STRING, arch STRING,
  num_cpus LONG, android_build_fingerprint STRING, android_device_manufacturer STRING,
  android_sdk_version LONG, system_ram_bytes LONG, system_ram_gb LONG, label_index LONG
) AS
SELECT
  id, raw_id, NULL AS name, sysname, release, version, arch, num_cpus,
  android_build_fingerprint, android_device_manufacturer, android_sdk_version,
  NULL AS system_ram_bytes, NULL AS system_ram_gb,
  CASE WHEN raw_id = 0 THEN 0 ELSE SUM(raw_id != 0) OVER (ORDER BY id) END AS label_index
FROM __intrinsic_machine;

CREATE PERFETTO VIEW clock_snapshot(
  id ID, ts TIMESTAMP, clock_id LONG, clock_name STRING, clock_value LONG, snapshot_id LONG,
  machine_id JOINID(machine.id)
) AS
SELECT id, ts, clock_id, clock_name, clock_value, snapshot_id, machine_id
FROM __intrinsic_clock_snapshot;

----------------------------------------------------------------------- processes and threads

CREATE PERFETTO VIEW process(
  id ID, upid JOINID(process.id), pid LONG, name STRING, start_ts TIMESTAMP, end_ts TIMESTAMP,
  parent_upid JOINID(process.id), uid LONG, android_appid LONG, android_user_id LONG,
  cmdline STRING, arg_set_id ARGSETID, machine_id JOINID(machine.id)
) AS
SELECT
  id, id AS upid, pid, name, start_ts, end_ts, parent_upid, uid, android_appid,
  android_user_id, cmdline, arg_set_id, machine_id
FROM __intrinsic_process;

CREATE PERFETTO VIEW thread(
  id ID, utid ID, tid LONG, name STRING, start_ts TIMESTAMP, end_ts TIMESTAMP,
  upid JOINID(process.id), is_main_thread BOOL, is_idle BOOL, machine_id JOINID(machine.id),
  arg_set_id ARGSETID
) AS
SELECT
  id, id AS utid, tid, name, start_ts, end_ts, upid, is_main_thread, is_idle, machine_id,
  arg_set_id
FROM __intrinsic_thread;

-- display_value renders every value type as text, the way trace_processor does.
CREATE PERFETTO VIEW args(
  id ID, arg_set_id ARGSETID, flat_key STRING, key STRING, int_value LONG,
  string_value STRING, real_value DOUBLE, value_type STRING, display_value STRING
) AS
SELECT
  id, arg_set_id, flat_key, key, int_value, string_value, real_value, value_type,
  CASE value_type
    WHEN 'int' THEN cast_string!(int_value)
    WHEN 'uint' THEN printf('%u', int_value)
    WHEN 'string' THEN string_value
    WHEN 'real' THEN cast_string!(real_value)
    WHEN 'pointer' THEN printf('0x%x', int_value)
    WHEN 'bool' THEN IIF(int_value != 0, 'true', 'false')
    WHEN 'json' THEN string_value
    ELSE NULL
  END AS display_value
FROM __intrinsic_args;

----------------------------------------------------------------------------- CPU scheduling

CREATE PERFETTO VIEW cpu(
  id ID, ucpu ID, cpu LONG, cluster_id LONG, processor STRING, machine_id JOINID(machine.id),
  capacity LONG, arg_set_id ARGSETID
) AS
SELECT id, id AS ucpu, cpu, cluster_id, processor, machine_id, capacity, arg_set_id
FROM __intrinsic_cpu
WHERE cpu IS NOT NULL;

CREATE PERFETTO VIEW cpu_available_frequencies(id ID, cpu LONG, freq LONG, ucpu LONG) AS
SELECT id, ucpu AS cpu, freq, ucpu
FROM __intrinsic_cpu_freq;

CREATE PERFETTO VIEW sched(
  id ID, ts TIMESTAMP, dur DURATION, cpu LONG, utid JOINID(thread.id), end_state STRING,
  priority LONG, ucpu LONG, ts_end LONG
) AS
SELECT id, ts, dur, ucpu AS cpu, utid, end_state, priority, ucpu, ts + dur AS ts_end
FROM __intrinsic_sched_slice;

CREATE PERFETTO VIEW sched_slice(
  id ID, ts TIMESTAMP, dur DURATION, cpu LONG, utid JOINID(thread.id), end_state STRING,
  priority LONG, ucpu LONG
) AS
SELECT id, ts, dur, ucpu AS cpu, utid, end_state, priority, ucpu
FROM __intrinsic_sched_slice;

CREATE PERFETTO VIEW thread_state(
  id ID, ts TIMESTAMP, dur DURATION, cpu LONG, utid JOINID(thread.id), state STRING,
  io_wait LONG, blocked_function STRING, waker_utid JOINID(thread.id),
  waker_id JOINID(thread_state.id), irq_context LONG, ucpu JOINID(cpu.id)
) AS
SELECT
  id, ts, dur, ucpu AS cpu, utid, state, io_wait, blocked_function, waker_utid, waker_id,
  irq_context, ucpu
FROM __intrinsic_thread_state;

------------------------------------------------------------------------------------- tracks

CREATE PERFETTO VIEW track(
  id ID, name STRING, type STRING, dimension_arg_set_id ARGSETID, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, machine_id JOINID(machine.id), track_group_id LONG
) AS
SELECT
  id, name, type, dimension_arg_set_id, parent_id, source_arg_set_id, machine_id,
  track_group_id
FROM __intrinsic_track;

CREATE PERFETTO VIEW thread_track(
  id ID(track.id), name STRING, type STRING, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, machine_id JOINID(machine.id), utid JOINID(thread.id)
) AS
SELECT id, name, type, parent_id, source_arg_set_id, machine_id, utid
FROM __intrinsic_track
WHERE event_type = 'slice' AND utid IS NOT NULL;

CREATE PERFETTO VIEW process_track(
  id ID(track.id), name STRING, type STRING, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, machine_id JOINID(machine.id), upid JOINID(process.id)
) AS
SELECT id, name, type, parent_id, source_arg_set_id, machine_id, upid
FROM __intrinsic_track
WHERE event_type = 'slice' AND upid IS NOT NULL;

CREATE PERFETTO VIEW cpu_track(
  id ID(track.id), name STRING, type STRING, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, machine_id JOINID(machine.id), cpu LONG
) AS
SELECT id, name, type, parent_id, source_arg_set_id, machine_id, cpu
FROM __intrinsic_track
WHERE event_type = 'slice' AND cpu IS NOT NULL;

CREATE PERFETTO VIEW gpu_track(
  id ID(track.id), name STRING, type STRING, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, dimension_arg_set_id ARGSETID, machine_id JOINID(machine.id),
  scope STRING, description STRING, context_id LONG
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, dimension_arg_set_id, machine_id,
  type AS scope,
  extract_arg(source_arg_set_id, 'description') AS description,
  extract_arg(dimension_arg_set_id, 'context_id') AS context_id
FROM __intrinsic_track
WHERE type IN ('drm_vblank', 'drm_sched_ring', 'drm_fence', 'mali_mcu_state',
               'gpu_render_stage', 'vulkan_events', 'gpu_log', 'graphics_frame_event');

CREATE PERFETTO VIEW counter_track(
  id ID(track.id), name STRING, parent_id JOINID(track.id), type STRING,
  dimension_arg_set_id ARGSETID, source_arg_set_id ARGSETID, machine_id JOINID(machine.id),
  unit STRING, description STRING
) AS
SELECT
  id, name, parent_id, type, dimension_arg_set_id, source_arg_set_id, machine_id,
  counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description
FROM __intrinsic_track
WHERE event_type = 'counter';

CREATE PERFETTO VIEW cpu_counter_track(
  id ID(track.id), name STRING, type STRING, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, machine_id JOINID(machine.id), unit STRING, description STRING,
  cpu LONG
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, machine_id, counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description, cpu
FROM __intrinsic_track
WHERE event_type = 'counter' AND cpu IS NOT NULL;

CREATE PERFETTO VIEW gpu_counter_track(
  id ID(track.id), name STRING, type STRING, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, machine_id JOINID(machine.id), unit STRING, description STRING,
  ugpu LONG, gpu_id LONG
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, machine_id, counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description,
  extract_arg(dimension_arg_set_id, 'ugpu') AS ugpu,
  extract_arg(dimension_arg_set_id, 'gpu') AS gpu_id
FROM __intrinsic_track
WHERE event_type = 'counter' AND extract_arg(dimension_arg_set_id, 'ugpu') IS NOT NULL;

CREATE PERFETTO VIEW process_counter_track(
  id ID(track.id), name STRING, type STRING, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, machine_id JOINID(machine.id), unit STRING, description STRING,
  upid LONG
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, machine_id, counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description, upid
FROM __intrinsic_track
WHERE event_type = 'counter' AND upid IS NOT NULL;

CREATE PERFETTO VIEW thread_counter_track(
  id ID(track.id), name STRING, type STRING, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, machine_id JOINID(machine.id), unit STRING, description STRING,
  utid LONG
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, machine_id, counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description, utid
FROM __intrinsic_track
WHERE event_type = 'counter' AND utid IS NOT NULL;

CREATE PERFETTO VIEW state_track(
  id ID(track.id), name STRING, parent_id JOINID(track.id), type STRING,
  dimension_arg_set_id ARGSETID, source_arg_set_id ARGSETID, machine_id JOINID(machine.id)
) AS
SELECT id, name, parent_id, type, dimension_arg_set_id, source_arg_set_id, machine_id
FROM __intrinsic_track
WHERE event_type = 'state';

CREATE PERFETTO VIEW process_state_track(
  id ID(track.id), name STRING, type STRING, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, machine_id JOINID(machine.id), upid JOINID(process.id)
) AS
SELECT id, name, type, parent_id, source_arg_set_id, machine_id, upid
FROM __intrinsic_track
WHERE event_type = 'state' AND upid IS NOT NULL;

CREATE PERFETTO VIEW thread_state_track(
  id ID(track.id), name STRING, type STRING, parent_id JOINID(track.id),
  source_arg_set_id ARGSETID, machine_id JOINID(machine.id), utid JOINID(thread.id)
) AS
SELECT id, name, type, parent_id, source_arg_set_id, machine_id, utid
FROM __intrinsic_track
WHERE event_type = 'state' AND utid IS NOT NULL;

--------------------------------------------------------------------------- events on tracks

CREATE PERFETTO VIEW counter(
  id ID, ts TIMESTAMP, track_id JOINID(track.id), value DOUBLE, arg_set_id ARGSETID
) AS
SELECT id, ts, track_id, value, arg_set_id
FROM __intrinsic_counter;

CREATE PERFETTO VIEW counters(
  id ID, ts TIMESTAMP, track_id JOINID(track.id), value DOUBLE, arg_set_id LONG, name STRING,
  unit STRING
) AS
SELECT c.id, c.ts, c.track_id, c.value, c.arg_set_id, t.name, t.unit
FROM counter AS c
JOIN counter_track AS t ON c.track_id = t.id
ORDER BY c.ts;

CREATE PERFETTO VIEW state(
  id ID, ts TIMESTAMP, dur DURATION, track_id JOINID(track.id), category STRING, value STRING,
  arg_set_id ARGSETID
) AS
SELECT id, ts, dur, track_id, category, value, arg_set_id
FROM __intrinsic_state;

CREATE PERFETTO VIEW slice(
  id ID, ts TIMESTAMP, dur DURATION, track_id JOINID(track.id), category STRING, name STRING,
  depth LONG, parent_id JOINID(slice.id), arg_set_id ARGSETID, thread_ts TIMESTAMP,
  thread_dur DURATION, thread_instruction_count LONG, thread_instruction_delta LONG,
  cat STRING, slice_id JOINID(slice.id)
) AS
SELECT
  id, ts, dur, track_id, category, name, depth, parent_id, arg_set_id, thread_ts, thread_dur,
  thread_instruction_count, thread_instruction_delta, category AS cat, id AS slice_id
FROM __intrinsic_slice;

CREATE PERFETTO VIEW slices(
  id JOINID(slice.id), ts TIMESTAMP, dur DURATION, track_id JOINID(track.id), category STRING,
  name STRING, depth LONG, parent_id JOINID(slice.id), arg_set_id ARGSETID,
  thread_ts TIMESTAMP, thread_dur DURATION, thread_instruction_count LONG,
  thread_instruction_delta LONG, cat STRING, slice_id JOINID(slice.id)
) AS
SELECT * FROM slice;

CREATE PERFETTO VIEW instant(
  ts TIMESTAMP, track_id JOINID(track.id), name STRING, arg_set_id ARGSETID
) AS
SELECT ts, track_id, name, arg_set_id
FROM slice
WHERE dur = 0;

CREATE PERFETTO VIEW flow(
  id ID, slice_out JOINID(slice.id), slice_in JOINID(slice.id), trace_id LONG,
  arg_set_id ARGSETID
) AS
SELECT id, slice_out, slice_in, trace_id, arg_set_id
FROM __intrinsic_flow;

CREATE PERFETTO VIEW ftrace_event(
  id ID, ts TIMESTAMP, name STRING, cpu LONG, utid JOINID(thread.id), arg_set_id ARGSETID,
  common_flags LONG, ucpu LONG
) AS
SELECT id, ts, name, ucpu AS cpu, utid, arg_set_id, common_flags, ucpu
FROM __intrinsic_ftrace_event;

CREATE PERFETTO VIEW raw(
  id ID, ts TIMESTAMP, name STRING, cpu LONG, utid JOINID(thread.id), arg_set_id ARGSETID,
  common_flags LONG, ucpu LONG
) AS
SELECT * FROM ftrace_event;

CREATE PERFETTO VIEW logs(
  id ID, ts TIMESTAMP, utid JOINID(thread.id), prio LONG, log_source STRING, tag STRING,
  msg STRING, arg_set_id ARGSETID
) AS
SELECT id, ts, utid, prio, log_source, tag, msg, arg_set_id
FROM __intrinsic_logs;

CREATE PERFETTO VIEW android_logs(
  id ID, ts TIMESTAMP, utid JOINID(thread.id), prio LONG, tag STRING, msg STRING
) AS
SELECT id, ts, utid, prio, tag, msg
FROM __intrinsic_logs
WHERE log_source = 'android_logcat';

---------------------------------------------------------------- graphics slices (by track type)

CREATE PERFETTO VIEW frame_slice(
  id ID(slice.id), ts TIMESTAMP, dur DURATION, track_id JOINID(track.id), category STRING,
  name STRING, depth LONG, parent_id JOINID(frame_slice.id), arg_set_id LONG,
  layer_name STRING, frame_number LONG, queue_to_acquire_time LONG,
  acquire_to_latch_time LONG, latch_to_present_time LONG
) AS
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  extract_arg(s.arg_set_id, 'layer_name') AS layer_name,
  extract_arg(s.arg_set_id, 'frame_number') AS frame_number,
  extract_arg(s.arg_set_id, 'queue_to_acquire_time') AS queue_to_acquire_time,
  extract_arg(s.arg_set_id, 'acquire_to_latch_time') AS acquire_to_latch_time,
  extract_arg(s.arg_set_id, 'latch_to_present_time') AS latch_to_present_time
FROM slice AS s
JOIN track AS t ON s.track_id = t.id
WHERE t.type = 'graphics_frame_event';

CREATE PERFETTO VIEW gpu_slice(
  id ID(slice.id), ts TIMESTAMP, dur DURATION, track_id JOINID(track.id), category STRING,
  name STRING, depth LONG, parent_id JOINID(frame_slice.id), arg_set_id LONG,
  context_id LONG, render_target LONG, render_target_name STRING, render_pass LONG,
  render_pass_name STRING, command_buffer LONG, command_buffer_name STRING, frame_id LONG,
  submission_id LONG, hw_queue_id LONG, upid JOINID(process.id), render_subpasses STRING,
  render_stage_category LONG
) AS
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  extract_arg(s.arg_set_id, 'context_id') AS context_id,
  extract_arg(s.arg_set_id, 'render_target') AS render_target,
  extract_arg(s.arg_set_id, 'render_target_name') AS render_target_name,
  extract_arg(s.arg_set_id, 'render_pass') AS render_pass,
  extract_arg(s.arg_set_id, 'render_pass_name') AS render_pass_name,
  extract_arg(s.arg_set_id, 'command_buffer') AS command_buffer,
  extract_arg(s.arg_set_id, 'command_buffer_name') AS command_buffer_name,
  extract_arg(s.arg_set_id, 'frame_id') AS frame_id,
  extract_arg(s.arg_set_id, 'submission_id') AS submission_id,
  extract_arg(s.arg_set_id, 'hw_queue_id') AS hw_queue_id,
  extract_arg(s.arg_set_id, 'upid') AS upid,
  extract_arg(s.arg_set_id, 'render_subpasses') AS render_subpasses,
  extract_arg(s.arg_set_id, 'render_stage_category') AS render_stage_category
FROM slice AS s
JOIN track AS t ON s.track_id = t.id
WHERE t.type IN ('gpu_render_stage', 'vulkan_events', 'gpu_log');

CREATE PERFETTO VIEW expected_frame_timeline_slice(
  id ID(slice.id), ts TIMESTAMP, dur DURATION, track_id JOINID(track.id), category STRING,
  name STRING, depth LONG, parent_id JOINID(frame_slice.id), arg_set_id LONG,
  display_frame_token LONG, surface_frame_token LONG, upid JOINID(process.id),
  layer_name STRING
) AS
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  extract_arg(s.arg_set_id, 'Display frame token') AS display_frame_token,
  extract_arg(s.arg_set_id, 'Surface frame token') AS surface_frame_token,
  t.upid,
  extract_arg(s.arg_set_id, 'Layer name') AS layer_name
FROM slice AS s
JOIN process_track AS t ON s.track_id = t.id
WHERE t.type = 'android_expected_frame_timeline'
ORDER BY s.id;

CREATE PERFETTO VIEW actual_frame_timeline_slice(
  id ID(slice.id), ts TIMESTAMP, dur DURATION, track_id JOINID(track.id), category STRING,
  name STRING, depth LONG, parent_id JOINID(frame_slice.id), arg_set_id LONG,
  display_frame_token LONG, surface_frame_token LONG, upid JOINID(process.id),
  layer_name STRING, present_type STRING, on_time_finish LONG, gpu_composition LONG,
  jank_type STRING, jank_severity_type STRING, prediction_type STRING, jank_tag STRING,
  jank_tag_experimental STRING, jank_score DOUBLE, latched_unsignaled_count LONG,
  addressable_unsignaled_latch_count LONG, latched_fence_state STRING
) AS
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  extract_arg(s.arg_set_id, 'Display frame token') AS display_frame_token,
  extract_arg(s.arg_set_id, 'Surface frame token') AS surface_frame_token,
  t.upid,
  extract_arg(s.arg_set_id, 'Layer name') AS layer_name,
  extract_arg(s.arg_set_id, 'Present type') AS present_type,
  extract_arg(s.arg_set_id, 'On time finish') AS on_time_finish,
  extract_arg(s.arg_set_id, 'GPU composition') AS gpu_composition,
  extract_arg(s.arg_set_id, 'Jank type') AS jank_type,
  extract_arg(s.arg_set_id, 'Jank severity type') AS jank_severity_type,
  extract_arg(s.arg_set_id, 'Prediction type') AS prediction_type,
  extract_arg(s.arg_set_id, 'Jank tag') AS jank_tag,
  extract_arg(s.arg_set_id, 'Jank tag (experimental)') AS jank_tag_experimental,
  extract_arg(s.arg_set_id, 'Jank Severity Score') AS jank_score,
  extract_arg(s.arg_set_id, 'Latched unsignaled count') AS latched_unsignaled_count,
  extract_arg(s.arg_set_id, 'Addressable unsignaled latch count')
    AS addressable_unsignaled_latch_count,
  extract_arg(s.arg_set_id, 'Latched fence state') AS latched_fence_state
FROM slice AS s
JOIN process_track AS t ON s.track_id = t.id
WHERE t.type = 'android_actual_frame_timeline'
ORDER BY s.id;

------------------------------------------------------------------------ slice tree functions

-- Whether `ancestor_id` is an ancestor of `descendant_id` (same track, shallower, enclosing).
CREATE PERFETTO FUNCTION slice_is_ancestor(ancestor_id LONG, descendant_id LONG)
RETURNS BOOL AS
SELECT
  a.track_id = d.track_id
  AND a.depth < d.depth
  AND a.ts <= d.ts
  AND (a.dur = -1 OR a.ts + a.dur >= d.ts + d.dur)
FROM slice AS a, slice AS d
WHERE a.id = $ancestor_id AND d.id = $descendant_id;

-- Every ancestor of a slice (parent, grandparent, ...), in id order.
CREATE PERFETTO FUNCTION ancestor_slice(slice_id LONG)
RETURNS TABLE(
  id LONG, ts TIMESTAMP, dur DURATION, track_id LONG, category STRING, name STRING,
  depth LONG, parent_id LONG, arg_set_id LONG, thread_ts TIMESTAMP, thread_dur DURATION,
  thread_instruction_count LONG, thread_instruction_delta LONG
) AS
WITH RECURSIVE up(id) AS (
  SELECT parent_id FROM __intrinsic_slice WHERE id = $slice_id AND parent_id IS NOT NULL
  UNION ALL
  SELECT s.parent_id FROM __intrinsic_slice AS s JOIN up ON s.id = up.id
  WHERE s.parent_id IS NOT NULL
)
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  s.thread_ts, s.thread_dur, s.thread_instruction_count, s.thread_instruction_delta
FROM up JOIN __intrinsic_slice AS s ON s.id = up.id
ORDER BY s.id;

-- Every descendant of a slice (children, grandchildren, ...), in id order.
CREATE PERFETTO FUNCTION descendant_slice(slice_id LONG)
RETURNS TABLE(
  id LONG, ts TIMESTAMP, dur DURATION, track_id LONG, category STRING, name STRING,
  depth LONG, parent_id LONG, arg_set_id LONG, thread_ts TIMESTAMP, thread_dur DURATION,
  thread_instruction_count LONG, thread_instruction_delta LONG
) AS
WITH RECURSIVE down(id) AS (
  SELECT id FROM __intrinsic_slice WHERE parent_id = $slice_id
  UNION ALL
  SELECT s.id FROM __intrinsic_slice AS s JOIN down ON s.parent_id = down.id
)
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  s.thread_ts, s.thread_dur, s.thread_instruction_count, s.thread_instruction_delta
FROM down JOIN __intrinsic_slice AS s ON s.id = down.id
ORDER BY s.id;

-- Installed Android packages (packages_list).
CREATE PERFETTO VIEW package_list AS
SELECT id, package_name, uid, debuggable, profileable_from_shell, version_code
FROM __intrinsic_package_list;
)sql";
  return kSql;
}

}  // namespace tw
