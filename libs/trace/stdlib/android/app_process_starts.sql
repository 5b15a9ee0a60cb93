-- Every app process start and what it was started for: an activity, a service, a broadcast or a
-- content provider. system_server's "Start proc: <name>" slice dispatches the start; the app's
-- main thread then runs bindApplication and, right after it, the component that needed the
-- process (performCreate:<activity>, serviceCreate: ... name=<service>,
-- broadcastReceiveComp:<receiver>). A bindApplication followed by none of these started the
-- process for a provider.

INCLUDE PERFETTO MODULE slices.with_context;

-- system_server's process start dispatches.
CREATE PERFETTO TABLE _proc_start_dispatch AS
SELECT ts, dur, trim(substr(name, 12)) AS process_name
FROM thread_slice
WHERE name GLOB 'Start proc:*' AND process_name = 'system_server';

-- bindApplication and the component lifecycle slices, per thread track in time order, each
-- with the slice before it on the same track.
CREATE PERFETTO TABLE _app_lifecycle_slices AS
SELECT
  id,
  ts,
  dur,
  track_id,
  name,
  upid,
  process_name,
  pid,
  CASE
    WHEN name GLOB 'performCreate:*' THEN 'activity'
    WHEN name GLOB 'serviceCreate:*' THEN 'service'
    WHEN name GLOB 'broadcastReceiveComp:*' THEN 'broadcast'
  END AS reason,
  CASE
    WHEN name GLOB 'performCreate:*' THEN substr(name, 15)
    WHEN name GLOB 'serviceCreate:*' THEN str_split(str_split(name, '=', 2), ' ', 0)
    WHEN name GLOB 'broadcastReceiveComp:*' THEN substr(name, 22)
  END AS intent,
  LAG(id) OVER by_track AS prev_id,
  LAG(name) OVER by_track AS prev_name,
  LAG(ts) OVER by_track AS prev_ts,
  LAG(dur) OVER by_track AS prev_dur
FROM thread_slice
WHERE name = 'bindApplication'
  OR name GLOB 'performCreate:*'
  OR name GLOB 'serviceCreate:*'
  OR name GLOB 'broadcastReceiveComp:*'
WINDOW by_track AS (PARTITION BY track_id ORDER BY ts);

-- One row per process start, with the component it was for: the lifecycle slice right after a
-- bindApplication on the same thread, or none (a provider start).
CREATE PERFETTO TABLE _app_starts AS
SELECT
  prev_id AS bind_app_id, prev_ts AS bind_app_ts, prev_dur AS bind_app_dur,
  id, track_id, ts AS intent_ts, dur AS intent_dur, reason, intent, upid, pid, process_name
FROM _app_lifecycle_slices
WHERE reason IS NOT NULL AND prev_name = 'bindApplication'
UNION ALL
SELECT
  b.id AS bind_app_id, b.ts AS bind_app_ts, b.dur AS bind_app_dur,
  NULL AS id, NULL AS track_id, NULL AS intent_ts, NULL AS intent_dur, 'provider' AS reason,
  NULL AS intent, b.upid, b.pid, b.process_name
FROM _app_lifecycle_slices AS b
WHERE b.name = 'bindApplication'
  AND NOT EXISTS (
    SELECT 1 FROM _app_lifecycle_slices AS n
    WHERE n.prev_id = b.id AND n.reason IS NOT NULL
  );

-- One row per app process start that system_server dispatched in the trace.
CREATE PERFETTO TABLE android_app_process_starts(
  -- The app's bindApplication slice (slice.id): one per process start.
  start_id LONG,
  -- The component's lifecycle slice in the app (slice.id); NULL for provider starts.
  id LONG,
  -- That slice's track (track.id).
  track_id JOINID(track.id),
  -- The started process's name.
  process_name STRING,
  -- Its pid.
  pid LONG,
  -- The started process (process.id).
  upid JOINID(process.id),
  -- The activity, service or broadcast receiver the process was started for.
  intent STRING,
  -- Why the process started: activity, service, broadcast or provider.
  reason STRING,
  -- When system_server dispatched the start ("Start proc:"; trace clock, ns).
  proc_start_ts TIMESTAMP,
  -- How long the dispatch took, in ns.
  proc_start_dur DURATION,
  -- When the app's bindApplication began.
  bind_app_ts TIMESTAMP,
  -- How long bindApplication took, in ns.
  bind_app_dur DURATION,
  -- When the app began handling the component.
  intent_ts TIMESTAMP,
  -- How long that took, in ns.
  intent_dur DURATION,
  -- From the dispatch to the end of the component's handling (or of bindApplication for
  -- provider starts), in ns.
  total_dur LONG
) AS
WITH dispatched AS (
  SELECT
    a.*,
    (SELECT MAX(d.ts) FROM _proc_start_dispatch AS d
     WHERE d.process_name = a.process_name AND d.ts < IFNULL(a.intent_ts, a.bind_app_ts))
      AS proc_start_ts
  FROM _app_starts AS a
)
SELECT
  s.bind_app_id AS start_id,
  s.id,
  s.track_id,
  s.process_name,
  s.pid,
  s.upid,
  s.intent,
  s.reason,
  s.proc_start_ts,
  d.dur AS proc_start_dur,
  s.bind_app_ts,
  s.bind_app_dur,
  s.intent_ts,
  s.intent_dur,
  IFNULL(s.intent_ts + s.intent_dur, s.bind_app_ts + s.bind_app_dur) - s.proc_start_ts
    AS total_dur
FROM dispatched AS s
JOIN _proc_start_dispatch AS d
  ON d.process_name = s.process_name AND d.ts = s.proc_start_ts
GROUP BY s.bind_app_id
ORDER BY s.proc_start_ts;
