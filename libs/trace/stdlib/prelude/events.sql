-- What sits on tracks: slices, counter values, states and flows; raw ftrace events and logs.

INCLUDE PERFETTO MODULE prelude.tracks;

-- One row per counter sample: a counter track's value at a time. The value holds until the
-- track's next sample.
CREATE PERFETTO VIEW counter(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  track_id JOINID(track.id),
  value DOUBLE,
  arg_set_id ARGSETID
) AS
SELECT id, ts, track_id, value, arg_set_id
FROM __intrinsic_counter;

-- Counter samples with their track's name and unit, in time order.
CREATE PERFETTO VIEW counters(
  -- The sample's id (counter.id).
  id ID,
  -- When the value was sampled (trace clock, ns).
  ts TIMESTAMP,
  -- The counter track (counter_track.id).
  track_id JOINID(track.id),
  -- The value, in the track's unit.
  value DOUBLE,
  -- Args of the sample, if any.
  arg_set_id LONG,
  -- The track's name.
  name STRING,
  -- The track's unit, if known.
  unit STRING
) AS
SELECT c.id, c.ts, c.track_id, c.value, c.arg_set_id, t.name, t.unit
FROM counter AS c
JOIN counter_track AS t ON c.track_id = t.id
ORDER BY c.ts;

-- One row per stretch of a string-valued state track.
CREATE PERFETTO VIEW state(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  dur DURATION,
  track_id JOINID(track.id),
  category STRING,
  value STRING,
  arg_set_id ARGSETID
) AS
SELECT id, ts, dur, track_id, category, value, arg_set_id
FROM __intrinsic_state;

-- One row per slice: a named stretch of time on a track (atrace sections, track events, frame
-- timeline slices, binder transactions, ...). Slices on one track nest: depth and parent_id.
CREATE PERFETTO VIEW slice(
  -- The slice's id: what slice_id, parent_id, slice_out and slice_in columns point at.
  id ID,
  ts TIMESTAMP,
  dur DURATION,
  track_id JOINID(track.id),
  category STRING,
  name STRING,
  depth LONG,
  parent_id JOINID(slice.id),
  arg_set_id ARGSETID,
  thread_ts TIMESTAMP,
  thread_dur DURATION,
  thread_instruction_count LONG,
  thread_instruction_delta LONG,
  -- Same as category (the older name).
  cat STRING,
  -- Same as id (the older name).
  slice_id JOINID(slice.id)
) AS
SELECT
  id, ts, dur, track_id, category, name, depth, parent_id, arg_set_id, thread_ts, thread_dur,
  thread_instruction_count, thread_instruction_delta, category AS cat, id AS slice_id
FROM __intrinsic_slice;

-- Same as slice (the older name).
CREATE PERFETTO VIEW slices(
  -- The slice's id.
  id JOINID(slice.id),
  -- When the slice began (trace clock, ns).
  ts TIMESTAMP,
  -- Its duration in ns; 0 for an instant, -1 when it never ended in the trace.
  dur DURATION,
  -- The track it is on.
  track_id JOINID(track.id),
  -- The category, if any.
  category STRING,
  -- The slice's name.
  name STRING,
  -- Nesting depth on its track: 0 for a root slice.
  depth LONG,
  -- The enclosing slice; NULL at depth 0.
  parent_id JOINID(slice.id),
  -- The slice's args.
  arg_set_id ARGSETID,
  -- Thread CPU time when the slice began, if recorded.
  thread_ts TIMESTAMP,
  -- Thread CPU time spent in the slice, if recorded.
  thread_dur DURATION,
  -- Instruction counter when the slice began, if recorded.
  thread_instruction_count LONG,
  -- Instructions retired during the slice, if recorded.
  thread_instruction_delta LONG,
  -- Same as category.
  cat STRING,
  -- Same as id.
  slice_id JOINID(slice.id)
) AS
SELECT * FROM slice;

-- The slices of zero duration (instant events).
CREATE PERFETTO VIEW instant(
  -- When the instant happened (trace clock, ns).
  ts TIMESTAMP,
  -- The track it is on.
  track_id JOINID(track.id),
  -- Its name.
  name STRING,
  -- Its args.
  arg_set_id ARGSETID
) AS
SELECT ts, track_id, name, arg_set_id
FROM slice
WHERE dur = 0;

-- One row per directed link between two slices: a binder reply to its transaction, a task
-- posted on one thread and run on another, track-event flows.
CREATE PERFETTO VIEW flow(
  -- Row id.
  id ID,
  slice_out JOINID(slice.id),
  slice_in JOINID(slice.id),
  trace_id LONG,
  arg_set_id ARGSETID
) AS
SELECT id, slice_out, slice_in, trace_id, arg_set_id
FROM __intrinsic_flow;

-- One row per raw ftrace event kept as is, its fields as args.
CREATE PERFETTO VIEW ftrace_event(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  name STRING,
  -- The CPU number it fired on.
  cpu LONG,
  utid JOINID(thread.id),
  arg_set_id ARGSETID,
  common_flags LONG,
  ucpu LONG
) AS
SELECT id, ts, name, ucpu AS cpu, utid, arg_set_id, common_flags, ucpu
FROM __intrinsic_ftrace_event;

-- Same as ftrace_event (the older name).
CREATE PERFETTO VIEW raw(
  -- The event's id.
  id ID,
  -- When it fired (trace clock, ns).
  ts TIMESTAMP,
  -- The ftrace event's name.
  name STRING,
  -- The CPU number it fired on.
  cpu LONG,
  -- The thread running when it fired.
  utid JOINID(thread.id),
  -- Its fields, as args.
  arg_set_id ARGSETID,
  -- The ftrace common_flags.
  common_flags LONG,
  -- The CPU's id (cpu.id).
  ucpu LONG
) AS
SELECT * FROM ftrace_event;

-- One row per log line of any source.
CREATE PERFETTO VIEW logs(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  utid JOINID(thread.id),
  prio LONG,
  log_source STRING,
  tag STRING,
  msg STRING,
  arg_set_id ARGSETID
) AS
SELECT id, ts, utid, prio, log_source, tag, msg, arg_set_id
FROM __intrinsic_logs;

-- One row per Android logcat line.
CREATE PERFETTO VIEW android_logs(
  -- Row id.
  id ID,
  ts TIMESTAMP,
  utid JOINID(thread.id),
  prio LONG,
  tag STRING,
  msg STRING
) AS
SELECT id, ts, utid, prio, tag, msg
FROM __intrinsic_logs
WHERE log_source = 'android_logcat';
