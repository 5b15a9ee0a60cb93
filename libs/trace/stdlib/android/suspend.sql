-- When the device was suspended or awake (android_suspend_state), and
-- durations that leave suspended time out.

-- The whole trace as alternating 'suspended' / 'awake' intervals per machine. Suspensions are
-- the "Suspend/Resume Minimal" slices when the machine has them, else the completed
-- syscore_resume(0) / timekeeping_freeze(0) slices of "Suspend/Resume Latency". A suspension
-- that overlaps the next one (or the trace end) is not trusted and left out.
CREATE PERFETTO TABLE android_suspend_state(
  -- When the state began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it lasted, in ns.
  dur DURATION,
  -- 'awake', 'suspended' or 'resuming' (or 'sleeping' / 'suspend_resume' on older kernels).
  power_state STRING,
  -- The machine (machine.id).
  machine_id JOINID(machine.id)
) AS
WITH
  minimal AS (
    SELECT s.ts, s.dur, COALESCE(t.machine_id, 0) AS machine_id
    FROM slice AS s JOIN track AS t ON s.track_id = t.id
    WHERE t.name = 'Suspend/Resume Minimal'
  ),
  latency AS (
    SELECT s.ts, s.dur, COALESCE(t.machine_id, 0) AS machine_id
    FROM slice AS s JOIN track AS t ON s.track_id = t.id
    WHERE t.name = 'Suspend/Resume Latency'
      AND s.name IN ('syscore_resume(0)', 'timekeeping_freeze(0)') AND s.dur != -1
      AND COALESCE(t.machine_id, 0) NOT IN (SELECT machine_id FROM minimal)
  ),
  candidates AS (
    SELECT
      ts, dur, machine_id,
      COALESCE(LEAD(ts) OVER (PARTITION BY machine_id ORDER BY ts), trace_end()) - ts - dur
        AS gap
    FROM (SELECT * FROM minimal UNION ALL SELECT * FROM latency)
  ),
  suspended AS (
    SELECT ts, dur, machine_id FROM candidates WHERE gap >= 0 AND dur >= 0
  ),
  machines AS (
    SELECT DISTINCT machine_id FROM suspended
    UNION
    SELECT 0
  ),
  -- Awake: from the trace start (or the end of the previous suspension) to the next
  -- suspension (or the trace end).
  awake AS (
    SELECT
      COALESCE(prev_end, trace_start()) AS ts,
      COALESCE(next_ts, trace_end()) - COALESCE(prev_end, trace_start()) AS dur,
      machine_id
    FROM (
      SELECT m.machine_id, NULL AS prev_end,
             (SELECT MIN(s.ts) FROM suspended AS s WHERE s.machine_id = m.machine_id) AS next_ts
      FROM machines AS m
      UNION ALL
      SELECT s.machine_id, s.ts + s.dur AS prev_end,
             (SELECT MIN(n.ts) FROM suspended AS n
              WHERE n.machine_id = s.machine_id AND n.ts >= s.ts + s.dur AND n.ts > s.ts)
               AS next_ts
      FROM suspended AS s
    )
  )
SELECT ts, dur, 'suspended' AS power_state, machine_id FROM suspended
UNION ALL
SELECT ts, dur, 'awake' AS power_state, machine_id FROM awake WHERE dur > 0
ORDER BY machine_id, ts;

-- $dur starting at $ts, minus the time the device spent suspended in it (via the monotonic
-- clock, which stops during suspend).
CREATE PERFETTO FUNCTION _extract_duration_without_suspend(ts TIMESTAMP, dur DURATION)
RETURNS LONG AS
SELECT to_monotonic($ts + $dur) - to_monotonic($ts);
