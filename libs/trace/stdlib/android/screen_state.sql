-- The screen's power state over time (the ScreenState counter from battery stats / atrace).

INCLUDE PERFETTO MODULE counters.intervals;

-- One row per stretch of one screen state, covering the whole trace ('unknown' where the trace
-- does not say).
CREATE PERFETTO TABLE android_screen_state(
  -- Row id.
  id ID,
  -- When the state began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it lasted, in ns.
  dur DURATION,
  -- 'off', 'doze' (always-on display), 'on' or 'unknown'.
  simple_screen_state STRING,
  -- 'off', 'doze', 'doze-suspend', 'on', 'on-vr', 'on-suspend' or 'unknown'.
  short_screen_state STRING,
  -- The state in words ('Screen off', 'Always-on display (doze)', ...).
  screen_state STRING
) AS
WITH
  known AS (
    SELECT iv.ts, iv.dur, cast_int!(iv.value) AS v
    FROM counter_leading_intervals!((
      SELECT c.id, c.ts, 0 AS track_id, c.value
      FROM counter AS c JOIN counter_track AS t ON t.id = c.track_id
      WHERE t.name = 'ScreenState'
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
  CASE v WHEN 1 THEN 'off' WHEN 2 THEN 'on' WHEN 3 THEN 'doze' WHEN 4 THEN 'doze'
    WHEN 5 THEN 'on' WHEN 6 THEN 'on' ELSE 'unknown' END AS simple_screen_state,
  CASE v WHEN 1 THEN 'off' WHEN 2 THEN 'on' WHEN 3 THEN 'doze' WHEN 4 THEN 'doze-suspend'
    WHEN 5 THEN 'on-vr' WHEN 6 THEN 'on-suspend' ELSE 'unknown' END AS short_screen_state,
  CASE v WHEN 1 THEN 'Screen off' WHEN 2 THEN 'Screen on'
    WHEN 3 THEN 'Always-on display (doze)' WHEN 4 THEN 'Always-on display (doze-suspend)'
    WHEN 5 THEN 'Screen on (VR)' WHEN 6 THEN 'Screen on (suspend)' ELSE 'Unknown' END
    AS screen_state
FROM with_gap
ORDER BY ts;
