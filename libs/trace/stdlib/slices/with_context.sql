-- Thread and process slices with the thread / process they belong to.

INCLUDE PERFETTO MODULE std.thread.with_context;

-- Slices on thread tracks, with the track's name, the thread and the thread's process.
CREATE PERFETTO VIEW thread_slice(
  -- The slice (slice.id).
  id ID(slice.id),
  -- When the slice began (trace clock, ns).
  ts TIMESTAMP,
  -- Its duration in ns; -1 when it never ended in the trace.
  dur DURATION,
  -- The slice's category, if any.
  category STRING,
  -- The slice's name.
  name STRING,
  -- The slice's track (track.id).
  track_id JOINID(track.id),
  -- The track's name.
  track_name STRING,
  -- The name of the thread the slice is on.
  thread_name STRING,
  -- The thread the slice is on (thread.id).
  utid JOINID(thread.id),
  -- That thread's tid.
  tid LONG,
  -- 1 when that thread is its process's main thread.
  is_main_thread BOOL,
  -- The name of that thread's process.
  process_name STRING,
  -- That thread's process (process.id).
  upid JOINID(process.id),
  -- That process's pid.
  pid LONG,
  -- Nesting depth on its track: 0 for a root slice.
  depth LONG,
  -- The enclosing slice (slice.id); NULL at depth 0.
  parent_id JOINID(slice.id),
  -- The args (args.arg_set_id).
  arg_set_id ARGSETID,
  -- Thread CPU time when it began, if recorded.
  thread_ts TIMESTAMP,
  -- Thread CPU time spent in it, if recorded.
  thread_dur LONG
) AS
SELECT
  s.id, s.ts, s.dur, s.category, s.name, s.track_id,
  tt.name AS track_name,
  ctx.thread_name, ctx.utid, ctx.tid, ctx.is_main_thread, ctx.process_name, ctx.upid, ctx.pid,
  s.depth, s.parent_id, s.arg_set_id, s.thread_ts, s.thread_dur
FROM thread_track AS tt
JOIN _thread_with_process AS ctx ON ctx.utid = tt.utid
JOIN slice AS s ON s.track_id = tt.id;

-- Slices on process tracks (async slices), with the track's name and the process.
CREATE PERFETTO VIEW process_slice(
  -- The slice (slice.id).
  id ID(slice.id),
  -- When the slice began (trace clock, ns).
  ts TIMESTAMP,
  -- Its duration in ns; -1 when it never ended in the trace.
  dur DURATION,
  -- The slice's category, if any.
  category STRING,
  -- The slice's name.
  name STRING,
  -- The slice's track (track.id).
  track_id JOINID(track.id),
  -- The track's name.
  track_name STRING,
  -- The name of the process the slice's track belongs to.
  process_name STRING,
  -- That process (process.id).
  upid JOINID(process.id),
  -- That process's pid.
  pid LONG,
  -- Nesting depth on its track: 0 for a root slice.
  depth LONG,
  -- The enclosing slice (slice.id); NULL at depth 0.
  parent_id JOINID(slice.id),
  -- The args (args.arg_set_id).
  arg_set_id ARGSETID,
  -- Thread CPU time when it began, if recorded.
  thread_ts TIMESTAMP,
  -- Thread CPU time spent in it, if recorded.
  thread_dur LONG
) AS
SELECT
  s.id, s.ts, s.dur, s.category, s.name, s.track_id,
  pt.name AS track_name,
  p.name AS process_name, p.upid, p.pid,
  s.depth, s.parent_id, s.arg_set_id, s.thread_ts, s.thread_dur
FROM slice AS s
JOIN process_track AS pt ON pt.id = s.track_id
JOIN process AS p ON p.upid = pt.upid;

-- Thread slices and process slices together; the thread columns are NULL for process slices.
CREATE PERFETTO VIEW thread_or_process_slice(
  -- The slice (slice.id).
  id JOINID(slice.id),
  -- When the slice began (trace clock, ns).
  ts TIMESTAMP,
  -- Its duration in ns; -1 when it never ended in the trace.
  dur DURATION,
  -- The slice's category, if any.
  category STRING,
  -- The slice's name.
  name STRING,
  -- The slice's track (track.id).
  track_id JOINID(track.id),
  -- The track's name.
  track_name STRING,
  -- For a thread slice: the thread's name.
  thread_name STRING,
  -- For a thread slice: the thread (thread.id).
  utid JOINID(thread.id),
  -- For a thread slice: its tid.
  tid LONG,
  -- The process the slice belongs to (through its thread for thread slices).
  process_name STRING,
  -- That process (process.id).
  upid JOINID(process.id),
  -- That process's pid.
  pid LONG,
  -- Nesting depth on its track: 0 for a root slice.
  depth LONG,
  -- The enclosing slice (slice.id); NULL at depth 0.
  parent_id JOINID(slice.id),
  -- The args (args.arg_set_id).
  arg_set_id ARGSETID
) AS
SELECT
  id, ts, dur, category, name, track_id, track_name, thread_name, utid, tid, process_name,
  upid, pid, depth, parent_id, arg_set_id
FROM thread_slice
UNION ALL
SELECT
  id, ts, dur, category, name, track_id, track_name, NULL AS thread_name, NULL AS utid,
  NULL AS tid, process_name, upid, pid, depth, parent_id, arg_set_id
FROM process_slice;
