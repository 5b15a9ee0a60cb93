-- Android's out-of-memory adjustment: each process's oom_score_adj over time (how readily lmkd
-- kills it), with the system_server update that set it.

INCLUDE PERFETTO MODULE counters.intervals;
INCLUDE PERFETTO MODULE slices.with_context;

-- The coarse importance bucket of an oom_score_adj value.
CREATE PERFETTO FUNCTION android_oom_adj_score_to_bucket_name(
  -- An oom_score_adj value (-1000 .. 1000).
  oom_score LONG
)
-- 'system' (< 0), 'foreground' (0-99), 'bfgs' (100-199, bound foreground services),
-- 'foreground_service' (200), 'job' (201-249), 'background' (250-899) or 'cached' (>= 900).
RETURNS STRING AS
SELECT CASE
  WHEN $oom_score IS NULL THEN NULL
  WHEN $oom_score < 0 THEN 'system'
  WHEN $oom_score < 100 THEN 'foreground'
  WHEN $oom_score < 200 THEN 'bfgs'
  WHEN $oom_score = 200 THEN 'foreground_service'
  WHEN $oom_score < 250 THEN 'job'
  WHEN $oom_score < 900 THEN 'background'
  ELSE 'cached'
END;

-- The fine-grained ActivityManager importance level of an oom_score_adj value.
CREATE PERFETTO FUNCTION android_oom_adj_score_to_detailed_bucket_name(
  -- An oom_score_adj value.
  value LONG,
  -- The process's Android app id (process.android_appid), for values no level matches.
  android_appid LONG
)
-- 'native', 'system', 'persistent_proc', 'foreground_app', 'visible_app', 'perceptible_app',
-- 'service', 'home_app', 'previous_app', 'cached_app', ... ('unknown_app' / 'unknown_native'
-- when no level matches).
RETURNS STRING AS
SELECT CASE
  WHEN $value = -1000 THEN 'native'
  WHEN $value = -900 THEN 'system'
  WHEN $value = -800 THEN 'persistent_proc'
  WHEN $value = -700 THEN 'persistent_service'
  WHEN $value = -600 THEN 'logcat'
  WHEN $value = 0 THEN 'foreground_app'
  WHEN $value = 50 THEN 'perceptible_foreground_app'
  WHEN $value >= 100 AND $value < 200 THEN 'visible_app'
  WHEN $value >= 200 AND $value < 225 THEN 'perceptible_app'
  WHEN $value >= 225 AND $value < 250 THEN 'perceptible_medium_app'
  WHEN $value >= 250 AND $value < 300 THEN 'perceptible_low_app'
  WHEN $value >= 300 AND $value < 400 THEN 'backup'
  WHEN $value >= 400 AND $value < 500 THEN 'heavy_weight_app'
  WHEN $value >= 500 AND $value < 600 THEN 'service'
  WHEN $value >= 600 AND $value < 700 THEN 'home_app'
  WHEN $value >= 700 AND $value < 800 THEN 'previous_app'
  WHEN $value >= 800 AND $value < 900 THEN 'service_b'
  WHEN $value >= 900 AND $value < 950 THEN 'cached_app'
  WHEN $value >= 950 THEN 'cached_app_lmk_first'
  WHEN $android_appid IS NULL THEN 'unknown'
  WHEN $android_appid < 10000 THEN 'unknown_native'
  ELSE 'unknown_app'
END;

-- system_server's updateOomAdj_<reason> slices, each lasting until the next one starts.
CREATE PERFETTO TABLE _oom_adj_updates AS
SELECT
  s.id AS oom_adj_id,
  s.ts AS oom_adj_ts,
  s.dur AS oom_adj_dur,
  s.track_id AS oom_adj_track_id,
  s.utid AS oom_adj_utid,
  s.thread_name AS oom_adj_thread_name,
  str_split(s.name, '_', 1) AS oom_adj_reason,
  (SELECT p.name FROM slice AS p WHERE p.id = s.parent_id AND p.dur != -1) AS oom_adj_trigger,
  IFNULL(LEAD(s.ts) OVER (ORDER BY s.ts), trace_end()) AS next_ts
FROM thread_slice AS s
WHERE s.name GLOB 'updateOomAdj_*' AND s.process_name = 'system_server';

CREATE PERFETTO INDEX _oom_adj_updates_by_ts ON _oom_adj_updates(oom_adj_ts);

-- Every process's oom_score_adj as intervals, with the last system_server update before each
-- change (the one that most likely caused it).
CREATE PERFETTO TABLE _oom_score_intervals AS
SELECT
  iv.ts,
  iv.dur,
  cast_int!(iv.value) AS score,
  t.upid,
  p.name AS process_name,
  p.android_appid,
  (SELECT u.oom_adj_id FROM _oom_adj_updates AS u
   WHERE u.oom_adj_ts < iv.ts AND iv.ts <= u.next_ts
   ORDER BY u.oom_adj_ts DESC LIMIT 1) AS oom_adj_id
FROM counter_leading_intervals!((
  SELECT c.id, c.ts, c.track_id, c.value
  FROM counter AS c
  JOIN process_counter_track AS ct ON ct.id = c.track_id
  WHERE ct.name = 'oom_score_adj'
)) AS iv
JOIN process_counter_track AS t ON t.id = iv.track_id
JOIN process AS p ON p.upid = t.upid;

-- One row per stretch of a process at one oom_score_adj, with the system_server oom-adj update
-- that last ran before the change.
CREATE PERFETTO VIEW android_oom_adj_intervals(
  -- When the process's score changed to this value (trace clock, ns).
  ts TIMESTAMP,
  -- How long it kept it: until its next change, or the trace's end.
  dur DURATION,
  -- The oom_score_adj value.
  score LONG,
  -- Its bucket (android_oom_adj_score_to_bucket_name).
  bucket STRING,
  -- The process (process.id).
  upid JOINID(process.id),
  -- Its name.
  process_name STRING,
  -- The updateOomAdj slice in system_server that last ran before the change (slice.id).
  oom_adj_id LONG,
  -- When that update began.
  oom_adj_ts TIMESTAMP,
  -- How long it took, in ns.
  oom_adj_dur DURATION,
  -- Its track (track.id).
  oom_adj_track_id JOINID(track.id),
  -- The system_server thread that ran it.
  oom_adj_thread_name STRING,
  -- Why it ran: the part of its name after "updateOomAdj_" (activityChange, startService,
  -- ...).
  oom_adj_reason STRING,
  -- The slice that enclosed it (what triggered it), if any.
  oom_adj_trigger STRING
) AS
SELECT
  i.ts,
  i.dur,
  i.score,
  android_oom_adj_score_to_bucket_name(i.score) AS bucket,
  i.upid,
  i.process_name,
  u.oom_adj_id,
  u.oom_adj_ts,
  u.oom_adj_dur,
  u.oom_adj_track_id,
  u.oom_adj_thread_name,
  u.oom_adj_reason,
  u.oom_adj_trigger
FROM _oom_score_intervals AS i
LEFT JOIN _oom_adj_updates AS u USING (oom_adj_id);
