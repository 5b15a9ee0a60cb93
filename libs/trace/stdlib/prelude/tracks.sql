-- Tracks: the timelines events sit on. `track` has every one; the typed views pick them by what
-- they hold (slices, counters, states) and what they belong to (a thread, a process, a CPU, a
-- GPU).

-- One row per track: a timeline of events of one kind in one context (a thread's slices, a
-- CPU's frequency, a process's async slices, ...).
CREATE PERFETTO VIEW track(
  -- The track's id: what track_id columns point at.
  id ID,
  name STRING,
  type STRING,
  dimension_arg_set_id ARGSETID,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  track_group_id LONG
) AS
SELECT
  id, name, type, dimension_arg_set_id, parent_id, source_arg_set_id, machine_id,
  track_group_id
FROM __intrinsic_track;

-- Slice tracks of one thread (atrace sections, track events on a thread).
CREATE PERFETTO VIEW thread_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  utid JOINID(thread.id)
) AS
SELECT id, name, type, parent_id, source_arg_set_id, machine_id, utid
FROM __intrinsic_track
WHERE event_type = 'slice' AND utid IS NOT NULL;

-- Slice tracks of one process (async slices, frame timelines, process-scoped track events).
CREATE PERFETTO VIEW process_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  upid JOINID(process.id)
) AS
SELECT id, name, type, parent_id, source_arg_set_id, machine_id, upid
FROM __intrinsic_track
WHERE event_type = 'slice' AND upid IS NOT NULL;

-- Slice tracks of one CPU (interrupts, softirqs, ...).
CREATE PERFETTO VIEW cpu_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  cpu LONG
) AS
SELECT id, name, type, parent_id, source_arg_set_id, machine_id, cpu
FROM __intrinsic_track
WHERE event_type = 'slice' AND cpu IS NOT NULL;

-- Slice tracks of the GPU (render stages, Vulkan events, GPU logs, display vblanks, fences).
CREATE PERFETTO VIEW gpu_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  dimension_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  -- What the track is scoped to (its type).
  scope STRING,
  -- The track's description, if the trace gave one.
  description STRING,
  -- The graphics context the track belongs to, if any.
  context_id LONG
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, dimension_arg_set_id, machine_id,
  type AS scope,
  extract_arg(source_arg_set_id, 'description') AS description,
  extract_arg(dimension_arg_set_id, 'context_id') AS context_id
FROM __intrinsic_track
WHERE type IN ('drm_vblank', 'drm_sched_ring', 'drm_fence', 'mali_mcu_state',
               'gpu_render_stage', 'vulkan_events', 'gpu_log', 'graphics_frame_event');

-- Every counter track (CPU frequency, memory, battery, app counters, ...).
CREATE PERFETTO VIEW counter_track(
  -- The track's id (track.id): what counter.track_id points at.
  id ID(track.id),
  name STRING,
  parent_id JOINID(track.id),
  type STRING,
  dimension_arg_set_id ARGSETID,
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  -- The values' unit, if known.
  unit STRING,
  -- The counter's description, if the trace gave one.
  description STRING
) AS
SELECT
  id, name, parent_id, type, dimension_arg_set_id, source_arg_set_id, machine_id,
  counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description
FROM __intrinsic_track
WHERE event_type = 'counter';

-- Counter tracks of one CPU (frequency, idle state, utilisation, ...).
CREATE PERFETTO VIEW cpu_counter_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  -- The values' unit, if known.
  unit STRING,
  -- The counter's description, if the trace gave one.
  description STRING,
  cpu LONG
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, machine_id, counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description, cpu
FROM __intrinsic_track
WHERE event_type = 'counter' AND cpu IS NOT NULL;

-- Counter tracks of one GPU (frequency, GPU counters).
CREATE PERFETTO VIEW gpu_counter_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  -- The values' unit, if known.
  unit STRING,
  -- The counter's description, if the trace gave one.
  description STRING,
  -- The GPU's id in this trace.
  ugpu LONG,
  -- The GPU's number as the trace gave it.
  gpu_id LONG
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, machine_id, counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description,
  extract_arg(dimension_arg_set_id, 'ugpu') AS ugpu,
  extract_arg(dimension_arg_set_id, 'gpu') AS gpu_id
FROM __intrinsic_track
WHERE event_type = 'counter' AND extract_arg(dimension_arg_set_id, 'ugpu') IS NOT NULL;

-- Counter tracks of one process (memory, app counters).
CREATE PERFETTO VIEW process_counter_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  -- The values' unit, if known.
  unit STRING,
  -- The counter's description, if the trace gave one.
  description STRING,
  upid LONG
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, machine_id, counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description, upid
FROM __intrinsic_track
WHERE event_type = 'counter' AND upid IS NOT NULL;

-- Counter tracks of one thread (thread CPU time, instruction counts).
CREATE PERFETTO VIEW thread_counter_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  -- The values' unit, if known.
  unit STRING,
  -- The counter's description, if the trace gave one.
  description STRING,
  utid LONG
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, machine_id, counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description, utid
FROM __intrinsic_track
WHERE event_type = 'counter' AND utid IS NOT NULL;

-- Counter tracks of Linux perf sampling: per session and cpu, the sampling timebase and each
-- follower counter, named as perf names the counter ("cpu-clock", "instructions").
CREATE PERFETTO VIEW perf_counter_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  -- The values' unit, if known.
  unit STRING,
  -- The counter's description, if the trace gave one.
  description STRING,
  -- The perf session the counter was sampled in (perf_session.id).
  perf_session_id LONG,
  -- The cpu the counter was read on; NULL for a counter of no cpu.
  cpu LONG,
  -- Whether this counter is the session's sampling timebase (1) or a follower (0).
  is_timebase BOOL
) AS
SELECT
  id, name, type, parent_id, source_arg_set_id, machine_id, counter_unit AS unit,
  extract_arg(source_arg_set_id, 'description') AS description,
  extract_arg(dimension_arg_set_id, 'perf_session_id') AS perf_session_id,
  extract_arg(dimension_arg_set_id, 'cpu') AS cpu,
  extract_arg(source_arg_set_id, 'is_timebase') AS is_timebase
FROM __intrinsic_track
WHERE type IN ('perf_cpu_counter', 'perf_global_counter');

-- Every track of string-valued states.
CREATE PERFETTO VIEW state_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  parent_id JOINID(track.id),
  type STRING,
  dimension_arg_set_id ARGSETID,
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id)
) AS
SELECT id, name, parent_id, type, dimension_arg_set_id, source_arg_set_id, machine_id
FROM __intrinsic_track
WHERE event_type = 'state';

-- State tracks of one process.
CREATE PERFETTO VIEW process_state_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  upid JOINID(process.id)
) AS
SELECT id, name, type, parent_id, source_arg_set_id, machine_id, upid
FROM __intrinsic_track
WHERE event_type = 'state' AND upid IS NOT NULL;

-- State tracks of one thread.
CREATE PERFETTO VIEW thread_state_track(
  -- The track's id (track.id).
  id ID(track.id),
  name STRING,
  type STRING,
  parent_id JOINID(track.id),
  source_arg_set_id ARGSETID,
  machine_id JOINID(machine.id),
  utid JOINID(thread.id)
) AS
SELECT id, name, type, parent_id, source_arg_set_id, machine_id, utid
FROM __intrinsic_track
WHERE event_type = 'state' AND utid IS NOT NULL;
