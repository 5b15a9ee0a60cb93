-- Whether the device was charging, over time (the BatteryStatus counter).

INCLUDE PERFETTO MODULE counters.intervals;

-- One row per stretch of one charging state, covering the whole trace ('unknown' where the
-- trace does not say).
CREATE PERFETTO TABLE android_charging_states(
  -- Row id.
  id LONG,
  -- When the state began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it lasted, in ns.
  dur DURATION,
  -- 'charging', 'discharging', 'not_charging' (charger present, battery not charging),
  -- 'full' or 'unknown'.
  short_charging_state STRING,
  -- The same in words: 'Charging', 'Discharging', 'Not charging', 'Full', 'Unknown'.
  charging_state STRING
) AS
WITH
  known AS (
    SELECT iv.ts, iv.dur, cast_int!(iv.value) AS v
    FROM counter_leading_intervals!((
      SELECT c.id, c.ts, 0 AS track_id, c.value
      FROM counter AS c JOIN counter_track AS t ON t.id = c.track_id
      WHERE t.name = 'BatteryStatus'
    )) AS iv
    WHERE iv.dur > 0
  ),
  with_gap AS (
    SELECT ts, dur, v FROM known
    UNION ALL
    SELECT trace_start() AS ts, MIN(ts) - trace_start() AS dur, NULL AS v FROM known
    HAVING MIN(ts) > trace_start()
    UNION ALL
    SELECT trace_start(), trace_end() - trace_start(), NULL
    WHERE NOT EXISTS (SELECT 1 FROM known)
  )
SELECT
  ROW_NUMBER() OVER (ORDER BY ts) - 1 AS id,
  ts,
  dur,
  CASE v WHEN 2 THEN 'charging' WHEN 3 THEN 'discharging' WHEN 4 THEN 'not_charging'
    WHEN 5 THEN 'full' ELSE 'unknown' END AS short_charging_state,
  CASE v WHEN 2 THEN 'Charging' WHEN 3 THEN 'Discharging' WHEN 4 THEN 'Not charging'
    WHEN 5 THEN 'Full' ELSE 'Unknown' END AS charging_state
FROM with_gap
ORDER BY ts;
