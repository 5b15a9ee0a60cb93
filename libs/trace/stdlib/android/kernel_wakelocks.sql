-- Kernel (and native) wakelocks: how much of the time the device was awake each one was held.
-- The android.kernel_wakelocks data source polls each wakelock's total held time as a counter
-- (tracks of type android_kernel_wakelock); between two polls the counter's growth is the time
-- held, and the awake time is the part of the interval the device was not suspended.

INCLUDE PERFETTO MODULE android.suspend;
INCLUDE PERFETTO MODULE counters.intervals;

-- One row per wakelock and interval between two of its polls, ordered by time then name.
CREATE PERFETTO TABLE android_kernel_wakelocks(
  -- When the interval began (trace clock, ns).
  ts TIMESTAMP,
  -- Its length, in ns.
  dur DURATION,
  -- The part of it the device was awake (not suspended), in ns.
  awake_dur DURATION,
  -- The wakelock's name.
  name STRING,
  -- The wakelock's kind (kernel or native), as the data source reports it.
  type STRING,
  -- How long the wakelock was held in the interval, in ns.
  held_dur DURATION,
  -- held_dur over awake_dur, clamped to [0, 1].
  held_ratio DOUBLE
) AS
WITH
  tracks AS (
    SELECT id, name, extract_arg(dimension_arg_set_id, 'wakelock_type') AS type
    FROM track
    WHERE type = 'android_kernel_wakelock'
  ),
  polls AS (
    SELECT iv.ts, iv.dur, t.name, t.type, iv.next_value - iv.value AS held_dur
    FROM counter_leading_intervals!((
      SELECT id, ts, track_id, value FROM counter WHERE track_id IN (SELECT id FROM tracks)
    )) AS iv
    JOIN tracks AS t ON t.id = iv.track_id
    WHERE iv.next_value IS NOT NULL
  ),
  -- Each interval cut by the suspend states it spans (the trace's bounds: outside them the
  -- state is unknown and the interval is not counted).
  pieces AS (
    SELECT
      p.ts,
      p.name,
      p.type,
      p.held_dur,
      s.power_state,
      MIN(s.ts + s.dur, p.ts + p.dur) - MAX(s.ts, p.ts) AS piece_dur
    FROM polls AS p
    JOIN android_suspend_state AS s ON s.ts < p.ts + p.dur AND s.ts + s.dur > p.ts
  ),
  with_awake AS (
    SELECT
      ts,
      name,
      type,
      held_dur,
      SUM(piece_dur) AS dur,
      SUM(IIF(power_state = 'awake', piece_dur, 0)) AS awake_dur
    FROM pieces
    GROUP BY ts, name, type, held_dur
  )
SELECT
  ts,
  dur,
  awake_dur,
  name,
  type,
  cast_int!(held_dur) AS held_dur,
  MAX(MIN(held_dur * 1.0 / awake_dur, 1.0), 0.0) AS held_ratio
FROM with_awake
ORDER BY ts, name, type;
