-- Low-memory kills: the processes lmkd killed, with why and how important they were.
-- lmkd has reported kills three ways over the years; the newest one the trace has is used:
-- instants "lmk,<pid>,<reason>,<oom_score_adj>,..." on a "lowmemorykiller" process track
-- (2025 on), slices of that form (2021 on), and before that a "kill_one_process" counter whose
-- value is the killed pid.

INCLUDE PERFETTO MODULE android.oom_adjuster;

-- lmkd's name for a kill reason code (its statslog kill_reasons); 'UNKNOWN' for a code it does
-- not define or none at all (kills seen only through the kill_one_process counter).
CREATE PERFETTO FUNCTION _android_lmk_kill_reason_string(kill_reason LONG)
RETURNS STRING AS
SELECT CASE
  WHEN $kill_reason = 0 THEN 'PRESSURE_AFTER_KILL'
  WHEN $kill_reason = 1 THEN 'NOT_RESPONDING'
  WHEN $kill_reason = 2 THEN 'LOW_SWAP_AND_THRASHING'
  WHEN $kill_reason = 3 THEN 'LOW_MEM_AND_SWAP'
  WHEN $kill_reason = 4 THEN 'LOW_MEM_AND_THRASHING'
  WHEN $kill_reason = 5 THEN 'DIRECT_RECL_AND_THRASHING'
  WHEN $kill_reason = 6 THEN 'LOW_MEM_AND_SWAP_UTIL'
  WHEN $kill_reason = 7 THEN 'LOW_FILECACHE_AFTER_THRASHING'
  WHEN $kill_reason = 8 THEN 'LOW_MEM'
  WHEN $kill_reason = 9 THEN 'DIRECT_RECL_STUCK'
  WHEN $kill_reason >= 1000 AND $kill_reason < 2000 THEN 'VENDOR_REASON'
  ELSE 'UNKNOWN'
END;

-- "lmk,<pid>,<reason>,<oom_score_adj>" slices and instants, newest form first.
CREATE PERFETTO TABLE _lmk_marker_events AS
SELECT
  s.ts,
  cast_int!(str_split(s.name, ',', 1)) AS pid,
  cast_int!(str_split(s.name, ',', 2)) AS kill_reason_raw,
  cast_int!(str_split(s.name, ',', 3)) AS oom_score_adj,
  IIF(s.dur = 0 AND t.name = 'lowmemorykiller', 1, 0) AS is_instant,
  IIF(s.dur > 0, 1, 0) AS is_slice
FROM slice AS s
JOIN track AS t ON t.id = s.track_id
WHERE s.name GLOB 'lmk,*';

-- The kill_one_process counter (pids), with the victim's oom score at the time.
CREATE PERFETTO TABLE _lmk_counter_events AS
SELECT
  c.ts,
  cast_int!(c.value) AS pid,
  NULL AS kill_reason_raw,
  (SELECT o.score FROM android_oom_adj_intervals AS o JOIN process AS p USING (upid)
   WHERE p.pid = cast_int!(c.value) AND c.ts >= o.ts AND c.ts < o.ts + o.dur
   LIMIT 1) AS oom_score_adj
FROM counter AS c
JOIN counter_track AS t ON t.id = c.track_id
WHERE t.name = 'kill_one_process' AND c.value > 0;

CREATE PERFETTO TABLE _lmk_events AS
WITH has AS (
  SELECT
    EXISTS (SELECT 1 FROM _lmk_marker_events WHERE is_instant) AS instants,
    EXISTS (SELECT 1 FROM _lmk_marker_events WHERE is_slice) AS slices
)
SELECT ts, pid, kill_reason_raw, oom_score_adj
FROM _lmk_marker_events, has
WHERE (has.instants AND is_instant) OR (NOT has.instants AND is_slice)
UNION ALL
SELECT ts, pid, kill_reason_raw, oom_score_adj
FROM _lmk_counter_events, has
WHERE NOT has.instants AND NOT has.slices;

-- One row per process lmkd killed.
CREATE PERFETTO TABLE android_lmk_events(
  -- When lmkd asked for the kill (trace clock, ns).
  ts TIMESTAMP,
  -- The killed process (process.id), when the trace knows it.
  upid JOINID(process.id),
  -- Its pid.
  pid LONG,
  -- Its name.
  process_name STRING,
  -- Its oom_score_adj when killed: higher means less important.
  oom_score_adj LONG,
  -- Why lmkd killed it (LOW_MEM, LOW_MEM_AND_THRASHING, ...; NULL for the oldest form).
  kill_reason STRING,
  -- The reason's number, as lmkd reports it.
  kill_reason_raw LONG
) AS
SELECT
  e.ts,
  p.upid,
  e.pid,
  p.name AS process_name,
  e.oom_score_adj,
  _android_lmk_kill_reason_string(e.kill_reason_raw) AS kill_reason,
  e.kill_reason_raw
FROM _lmk_events AS e
LEFT JOIN process AS p
  ON p.pid = e.pid
  AND e.ts >= IFNULL(p.start_ts, trace_start())
  AND e.ts <= IFNULL(p.end_ts, trace_end())
ORDER BY e.ts;
