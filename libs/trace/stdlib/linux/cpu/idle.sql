-- Each CPU's idle state as intervals of constant value (cpu_idle_counters).

INCLUDE PERFETTO MODULE counters.intervals;

-- One row per cpuidle sample: the idle state a CPU was in from ts for dur. -1 means active
-- (the kernel reports it as 4294967295); larger values are deeper states.
CREATE PERFETTO TABLE cpu_idle_counters(
  -- The counter sample (counter.id).
  id LONG,
  -- The CPU's cpuidle track (counter_track.id).
  track_id JOINID(track.id),
  -- When the CPU entered the state (trace clock, ns).
  ts TIMESTAMP,
  -- How long it stayed: until the next sample, or the trace's end.
  dur DURATION,
  -- The idle state: -1 when active, 0 the shallowest idle state, larger is deeper.
  idle LONG,
  -- The CPU number.
  cpu LONG
) AS
SELECT
  iv.id,
  iv.track_id,
  iv.ts,
  iv.dur,
  cast_int!(IIF(iv.value = 4294967295, -1, iv.value)) AS idle,
  t.cpu
FROM counter_leading_intervals!((
  SELECT cn.id, cn.ts, cn.track_id, cn.value
  FROM counter AS cn
  JOIN cpu_counter_track AS ct ON ct.id = cn.track_id
  WHERE ct.name = 'cpuidle'
)) AS iv
JOIN cpu_counter_track AS t ON t.id = iv.track_id;
