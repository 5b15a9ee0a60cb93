-- App launches (android_startups) with their type, processes and
-- threads, and helpers for the slices inside a launch.

INCLUDE PERFETTO MODULE android.process_metadata;
INCLUDE PERFETTO MODULE android.startup.startups_maxsdk28;
INCLUDE PERFETTO MODULE android.startup.startups_minsdk29;
INCLUDE PERFETTO MODULE android.startup.startups_minsdk33;
INCLUDE PERFETTO MODULE android.startup.startup_events;
INCLUDE PERFETTO MODULE android.version;

-- Launches as the platform version reports them. The SDK level picks the source; without it,
-- the slices present do (launchingActivity#…:… on 13+, MetricsLogger:… on 10–12). Older
-- sources number launches in time order from 0.
CREATE PERFETTO TABLE _android_startups_raw AS
WITH
  version AS (
    SELECT CASE
      WHEN _android_sdk_version() >= 33 THEN 33
      WHEN _android_sdk_version() >= 29 THEN 29
      WHEN _android_sdk_version() IS NOT NULL THEN 28
      WHEN EXISTS (SELECT 1 FROM slice WHERE name GLOB 'launchingActivity#*:*') THEN 33
      WHEN EXISTS (SELECT 1 FROM slice WHERE name GLOB 'MetricsLogger:*') THEN 29
      ELSE 28
    END AS v
  )
SELECT ROW_NUMBER() OVER (ORDER BY ts) - 1 AS startup_id, ts, ts_end, dur, package, startup_type
FROM _startups_maxsdk28
WHERE (SELECT v FROM version) = 28
UNION ALL
SELECT ROW_NUMBER() OVER (ORDER BY ts) - 1 AS startup_id, ts, ts_end, dur, package, startup_type
FROM _startups_minsdk29
WHERE (SELECT v FROM version) = 29
UNION ALL
SELECT startup_id, ts, ts_end, dur, package, startup_type
FROM _startups_minsdk33
WHERE (SELECT v FROM version) = 33;

-- The app-side slices that tell a launch's type.
CREATE PERFETTO TABLE _startup_indicator_slices AS
SELECT ts, name, track_id
FROM slice
WHERE name IN ('bindApplication', 'activityStart', 'activityResume');

-- How many `name` indicator slices thread $utid began in [start_ts, end_ts).
CREATE PERFETTO FUNCTION _startup_indicator_slice_count(
  start_ts TIMESTAMP, end_ts TIMESTAMP, utid JOINID(thread.id), name STRING
)
RETURNS LONG AS
SELECT COUNT(1)
FROM thread_track AS t
JOIN _startup_indicator_slices AS s ON s.track_id = t.id
WHERE t.utid = $utid AND s.ts >= $start_ts AND s.ts < $end_ts AND s.name = $name;

-- The process(es) that handled each launch: processes of the launched package (by
-- package_list, or by name prefix when the trace has no package list) whose main thread
-- resumed an activity during the launch. The type is the platform's when it reported one,
-- else cold (bindApplication + activityStart + activityResume), warm (activityStart +
-- activityResume) or hot (activityResume only).
CREATE PERFETTO TABLE android_startup_processes(
  -- The startup (android_startups.startup_id).
  startup_id JOINID(android_startups.startup_id),
  -- A process the startup launched or brought up (process.id).
  upid JOINID(process.id),
  -- Its pid.
  pid LONG,
  -- cold, warm or hot, as decided for this process.
  startup_type STRING
) AS
WITH
  counted AS MATERIALIZED (
    SELECT
      l.startup_id,
      l.startup_type,
      p.upid,
      p.pid,
      _startup_indicator_slice_count(l.ts, l.ts_end, t.utid, 'bindApplication') AS bind_app,
      _startup_indicator_slice_count(l.ts, l.ts_end, t.utid, 'activityStart') AS a_start,
      _startup_indicator_slice_count(l.ts, l.ts_end, t.utid, 'activityResume') AS a_resume
    FROM _android_startups_raw AS l
    JOIN android_process_metadata AS p
      ON l.package = p.package_name
        OR ((SELECT COUNT(1) = 0 FROM package_list) AND p.process_name GLOB l.package || '*')
    JOIN thread AS t ON t.upid = p.upid AND t.is_main_thread
  ),
  typed AS (
    SELECT
      startup_id, upid, pid,
      CASE
        WHEN startup_type IS NOT NULL THEN startup_type
        WHEN bind_app > 0 AND a_start > 0 AND a_resume > 0 THEN 'cold'
        WHEN a_start > 0 AND a_resume > 0 THEN 'warm'
        WHEN a_resume > 0 THEN 'hot'
        ELSE NULL
      END AS startup_type
    FROM counted
    WHERE a_resume > 0
  )
SELECT * FROM typed WHERE startup_type IS NOT NULL;

-- All app launches. dur_without_trampoline: when a trampoline activity started first, the
-- duration of the last "launching:" slice that began inside the launch after another one;
-- otherwise dur.
CREATE PERFETTO VIEW android_startups(
  -- The startup's id.
  startup_id ID,
  -- When the launch began (trace clock, ns).
  ts TIMESTAMP,
  -- When it ended: the first frame drawn, or the end of the launch slice.
  ts_end TIMESTAMP,
  -- How long the launch took, in ns.
  dur DURATION,
  -- dur, minus the time spent in a trampoline activity that only launched the real one.
  dur_without_trampoline DURATION,
  -- The launched app's package.
  package STRING,
  -- cold (the process was started), warm (the process existed, the activity was created) or hot
  -- (the activity existed).
  startup_type STRING
) AS
SELECT
  r.startup_id,
  r.ts,
  r.ts_end,
  r.dur,
  COALESCE(
    (SELECT le.dur
     FROM _startup_events AS le
     WHERE le.package_name = r.package AND le.ts >= r.ts AND le.ts < r.ts_end
       AND EXISTS (SELECT 1 FROM _startup_events AS e
                   WHERE e.ts >= r.ts AND e.ts < r.ts_end AND e.ts < le.ts)
     ORDER BY le.ts DESC
     LIMIT 1),
    r.dur) AS dur_without_trampoline,
  r.package,
  COALESCE(r.startup_type,
           (SELECT MAX(p.startup_type) FROM android_startup_processes AS p
            WHERE p.startup_id = r.startup_id)) AS startup_type
FROM _android_startups_raw AS r
ORDER BY r.startup_id;

-- Every thread of every process that handled a launch.
CREATE PERFETTO VIEW android_startup_threads(
  -- The startup (android_startups.startup_id).
  startup_id JOINID(android_startups.startup_id),
  -- When the startup began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it took, in ns.
  dur DURATION,
  -- The launched process (process.id).
  upid JOINID(process.id),
  -- Its pid.
  pid LONG,
  -- One of its threads (thread.id).
  utid JOINID(thread.id),
  -- That thread's tid.
  tid LONG,
  -- That thread's name.
  thread_name STRING,
  -- 1 for the process's main thread.
  is_main_thread BOOL
) AS
SELECT
  s.startup_id, s.ts, s.dur, p.upid, p.pid, t.utid, t.tid, t.name AS thread_name,
  t.is_main_thread
FROM android_startups AS s
JOIN android_startup_processes AS p USING (startup_id)
JOIN thread AS t ON t.upid = p.upid;

-- Every slice that began on a launch's threads during the launch.
CREATE PERFETTO VIEW android_thread_slices_for_all_startups(
  -- When the startup began (trace clock, ns).
  startup_ts TIMESTAMP,
  -- When it ended.
  startup_ts_end TIMESTAMP,
  -- The startup (android_startups.startup_id).
  startup_id JOINID(android_startups.startup_id),
  -- A thread of the launched process (thread.id).
  utid JOINID(thread.id),
  -- Its tid.
  tid LONG,
  -- Its name.
  thread_name STRING,
  -- 1 for the main thread.
  is_main_thread BOOL,
  -- The slice's args.
  arg_set_id ARGSETID,
  -- A slice of that thread during the startup (slice.id).
  slice_id JOINID(slice.id),
  -- The slice's name.
  slice_name STRING,
  -- When the slice began.
  slice_ts TIMESTAMP,
  -- Its duration, in ns.
  slice_dur DURATION
) AS
SELECT
  st.ts AS startup_ts,
  st.ts + st.dur AS startup_ts_end,
  st.startup_id,
  st.utid,
  st.tid,
  st.thread_name,
  st.is_main_thread,
  s.arg_set_id,
  s.id AS slice_id,
  s.name AS slice_name,
  s.ts AS slice_ts,
  s.dur AS slice_dur
FROM android_startup_threads AS st
JOIN thread_track AS tt ON tt.utid = st.utid
JOIN slice AS s ON s.track_id = tt.id
WHERE s.ts BETWEEN st.ts AND st.ts + st.dur;

-- Slices of launch $startup_id whose name matches $slice_name (a GLOB).
CREATE PERFETTO FUNCTION android_slices_for_startup_and_slice_name(
  -- The startup (android_startups.startup_id).
  startup_id JOINID(android_startups.startup_id),
  -- A GLOB pattern for the slice names to find.
  slice_name STRING
)
RETURNS TABLE(
  -- A matching slice (slice.id).
  slice_id JOINID(slice.id),
  -- Its name.
  slice_name STRING,
  -- When it began (trace clock, ns).
  slice_ts TIMESTAMP,
  -- Its duration, in ns.
  slice_dur DURATION,
  -- Its thread's name.
  thread_name STRING,
  -- Its thread's tid.
  tid LONG,
  -- Its args.
  arg_set_id ARGSETID
) AS
SELECT slice_id, slice_name, slice_ts, slice_dur, thread_name, tid, arg_set_id
FROM android_thread_slices_for_all_startups
WHERE startup_id = $startup_id AND slice_name GLOB $slice_name;

-- Class-loading slices ("L<class descriptor>;") inside launches.
CREATE PERFETTO VIEW android_class_loading_for_startup(
  -- A class-loading slice (slice.id).
  slice_id JOINID(slice.id),
  -- The startup (android_startups.startup_id).
  startup_id JOINID(android_startups.startup_id),
  -- Its name (L<class>; or OpenDexFilesFromOat...).
  slice_name STRING,
  -- When it began (trace clock, ns).
  slice_ts TIMESTAMP,
  -- Its duration, in ns.
  slice_dur DURATION,
  -- Its thread's name.
  thread_name STRING,
  -- Its thread's tid.
  tid LONG,
  -- Its args.
  arg_set_id ARGSETID
) AS
SELECT slice_id, startup_id, slice_name, slice_ts, slice_dur, thread_name, tid, arg_set_id
FROM android_thread_slices_for_all_startups
WHERE slice_name GLOB 'L*;';

-- Binder transactions of launch $startup_id longer than $threshold, with the server process.
CREATE PERFETTO FUNCTION android_binder_transaction_slices_for_startup(
  -- The startup (android_startups.startup_id).
  startup_id JOINID(android_startups.startup_id),
  -- Only transactions longer than this many ns.
  threshold DOUBLE
)
RETURNS TABLE(
  -- The binder transaction slice (slice.id).
  id LONG,
  -- Its duration, in ns.
  slice_dur DURATION,
  -- The calling thread's name.
  thread_name STRING,
  -- The serving process's name, if the reply is in the trace.
  process STRING,
  -- The slice's args.
  arg_set_id ARGSETID,
  -- 1 when the main thread made the call.
  is_main_thread BOOL
) AS
SELECT s.slice_id AS id, s.slice_dur, s.thread_name, p.name AS process, s.arg_set_id,
       s.is_main_thread
FROM android_thread_slices_for_all_startups AS s
JOIN process AS p ON p.pid = extract_arg(s.arg_set_id, 'destination process')
WHERE s.startup_id = $startup_id AND s.slice_name GLOB 'binder transaction'
  AND s.slice_dur > $threshold;

-- Total duration of launch $startup_id's slices matching $slice_name.
CREATE PERFETTO FUNCTION android_sum_dur_for_startup_and_slice(
  -- The startup (android_startups.startup_id).
  startup_id JOINID(android_startups.startup_id),
  -- A GLOB pattern for slice names.
  slice_name STRING
)
RETURNS LONG AS
SELECT SUM(slice_dur)
FROM android_thread_slices_for_all_startups
WHERE startup_id = $startup_id AND slice_name GLOB $slice_name;

-- The same, on main threads only.
CREATE PERFETTO FUNCTION android_sum_dur_on_main_thread_for_startup_and_slice(
  -- The startup (android_startups.startup_id).
  startup_id JOINID(android_startups.startup_id),
  -- A GLOB pattern for slice names.
  slice_name STRING
)
RETURNS LONG AS
SELECT SUM(slice_dur)
FROM android_thread_slices_for_all_startups
WHERE startup_id = $startup_id AND slice_name GLOB $slice_name AND is_main_thread;
