-- How long an Android Automotive user switch took — from the latest
-- UserController.startUser of a non-system-user to each app launch or user-10 stop after it —
-- and the CPU and memory the previous user (10) used meanwhile.

INCLUDE PERFETTO MODULE android.startup.startups;

-- One row per event ending the user switch (an app startup's end, or the end of a
-- "finishUserStopped-10..." slice) after the last "UserController.startUser-<id>..." slice whose
-- user is not 10. event_start_user_id is the started user's id as text (two characters, as the
-- slice name spells it).
CREATE PERFETTO TABLE android_auto_multiuser_timing(
  -- The Android user being switched to.
  event_start_user_id STRING,
  -- When the user switch began (trace clock, ns).
  event_start_time LONG,
  -- When the switch was done (the first of the end events).
  event_end_time LONG,
  -- The slice that ended it.
  event_end_name STRING,
  -- The slice that began it.
  event_start_name STRING,
  -- How long the switch took, in ns.
  duration LONG
) AS
WITH
  user_start AS (
    SELECT
      name AS event_start_name,
      ts AS start_time,
      substr(name, instr(name, '-') + 1, 2) AS started_user_id
    FROM slice
    WHERE name GLOB 'UserController.startUser*'
      AND NOT name GLOB 'UserController.startUser-10*'
    ORDER BY ts DESC
    LIMIT 1
  ),
  switch_ends AS (
    SELECT ts_end AS end_time, package AS end_name FROM android_startups
    UNION
    SELECT ts + dur AS end_time, name AS end_name FROM slice
    WHERE name GLOB 'finishUserStopped-10*'
  )
SELECT
  u.started_user_id AS event_start_user_id,
  u.start_time AS event_start_time,
  e.end_time AS event_end_time,
  e.end_name AS event_end_name,
  u.event_start_name,
  e.end_time - u.start_time AS duration
FROM switch_ends AS e
JOIN user_start AS u ON e.end_time > u.start_time;

-- CPU time user 10's processes ran during each switch window, per switch end.
CREATE PERFETTO VIEW _android_auto_user_10_total_cpu_time AS
SELECT
  SUM(ss.dur) AS total_cpu_time,
  (p.uid - p.android_appid) / 100000 AS user_id,
  m.event_end_name
FROM sched_slice AS ss
JOIN thread AS t USING (utid)
JOIN process AS p USING (upid)
JOIN android_auto_multiuser_timing AS m
  ON ss.ts >= m.event_start_time AND ss.ts <= m.event_end_time
WHERE (p.uid - p.android_appid) / 100000 = 10
GROUP BY m.event_end_name;

-- Memory (kB) user 10's processes newly allocated (sum of mem.rss increases) during each switch
-- window, per switch end.
CREATE PERFETTO VIEW _android_auto_user_10_total_memory AS
WITH
  samples AS (
    SELECT
      c.ts, c.value, p.name AS proc_name, (p.uid - p.android_appid) / 100000 AS user_id,
      m.event_end_name
    FROM counter AS c
    JOIN process_counter_track AS t ON c.track_id = t.id
    JOIN process AS p USING (upid)
    JOIN android_auto_multiuser_timing AS m
      ON c.ts >= m.event_start_time AND c.ts <= m.event_end_time
    WHERE t.name GLOB 'mem.rss' AND (p.uid - p.android_appid) / 100000 = 10
  ),
  deltas AS (
    SELECT
      *,
      value - coalesce(
        LAG(value) OVER (PARTITION BY proc_name, event_end_name ORDER BY ts), value) AS delta
    FROM samples
  ),
  per_process AS (
    SELECT proc_name, SUM(delta) / 1e3 AS alloc_kb, user_id, event_end_name
    FROM deltas WHERE delta > 0
    GROUP BY proc_name, event_end_name
  )
SELECT cast_int!(SUM(alloc_kb)) AS total_memory_usage_kb, user_id, event_end_name
FROM per_process
GROUP BY event_end_name;

-- android_auto_multiuser_timing with what the previous user (10) used during each switch.
CREATE PERFETTO VIEW android_auto_multiuser_timing_with_previous_user_resource_usage(
  -- The Android user being switched to.
  event_start_user_id STRING,
  -- When the user switch began (trace clock, ns).
  event_start_time LONG,
  -- When the switch was done (the first of the end events).
  event_end_time LONG,
  -- The slice that ended it.
  event_end_name STRING,
  -- The slice that began it.
  event_start_name STRING,
  -- How long the switch took, in ns.
  duration LONG,
  -- The previous user (whose usage the next columns give).
  user_id LONG,
  -- CPU time that user's processes used before the switch, in ns.
  total_cpu_time LONG,
  -- Memory that user's processes held before the switch, in kB.
  total_memory_usage_kb LONG
) AS
SELECT
  a.event_start_user_id, a.event_start_time, a.event_end_time, a.event_end_name,
  a.event_start_name, a.duration, b.user_id, b.total_cpu_time, c.total_memory_usage_kb
FROM android_auto_multiuser_timing AS a
LEFT JOIN _android_auto_user_10_total_cpu_time AS b ON a.event_end_name = b.event_end_name
LEFT JOIN _android_auto_user_10_total_memory AS c ON a.event_end_name = c.event_end_name;
