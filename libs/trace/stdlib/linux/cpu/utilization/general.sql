-- Building blocks of the CPU utilisation modules: time split into fixed periods, and every
-- stretch of a thread running on a CPU split by the CPU's frequency.

INCLUDE PERFETTO MODULE linux.cpu.frequency;

-- Periods of `size` ns covering the trace, aligned to multiples of `size`.
CREATE PERFETTO FUNCTION _partitions(size LONG)
RETURNS TABLE(ts TIMESTAMP, ts_end LONG) AS
WITH RECURSIVE p(ts) AS (
  SELECT (trace_start() / $size) * $size
  UNION ALL
  SELECT ts + $size FROM p WHERE ts + $size <= trace_end()
)
SELECT ts, ts + $size AS ts_end FROM p;

-- Average utilisation per period of `interval` ns of the running stretches in `sched_table`
-- (ts and ts_end columns): each stretch counts in the period it starts in, clipped to that
-- period's end. Rows: ts (the period's start), utilization (busy time over the period times
-- the number of CPUs, 0..1), unnormalized_utilization (busy time over the period, 0..CPUs).
CREATE PERFETTO MACRO _cpu_avg_utilization_per_period(interval Expr, sched_table TableOrSubquery)
RETURNS TableOrSubquery AS (
  SELECT
    (s.ts / ($interval)) * ($interval) AS ts,
    SUM(MIN(s.ts_end, (s.ts / ($interval)) * ($interval) + ($interval)) - s.ts)
      / (cast_double!($interval) * (SELECT MAX(cpu) + 1 FROM sched)) AS utilization,
    SUM(MIN(s.ts_end, (s.ts / ($interval)) * ($interval) + ($interval)) - s.ts)
      / cast_double!($interval) AS unnormalized_utilization
  FROM $sched_table AS s
  WHERE s.ts_end > s.ts
  GROUP BY 1
  ORDER BY 1
);

-- Each CPU's frequency intervals, plus a NULL-frequency interval from the trace's start to a
-- CPU's first sample, so every running stretch is covered.
CREATE PERFETTO TABLE _cpu_freq_intervals AS
SELECT id AS counter_id, ts, dur, ucpu, cpu, freq FROM cpu_frequency_counters
UNION ALL
SELECT NULL AS counter_id, trace_start() AS ts, MIN(ts) - trace_start() AS dur, ucpu, cpu,
  NULL AS freq
FROM cpu_frequency_counters
GROUP BY ucpu
HAVING MIN(ts) > trace_start();

CREATE PERFETTO INDEX _cpu_freq_intervals_by_cpu ON _cpu_freq_intervals(ucpu, ts);

-- Every finished stretch of a (non-idle) thread running on a CPU, split where the CPU's
-- frequency changed: id, ts, dur, ucpu, cpu, utid, freq (kHz; NULL where unknown) and the
-- frequency sample (counter_id).
CREATE PERFETTO VIEW _cpu_freq_per_thread AS
WITH running AS (
  SELECT s.ts, s.dur, s.ucpu, s.cpu, s.utid
  FROM sched AS s
  WHERE s.dur > 0 AND s.utid NOT IN (SELECT utid FROM thread WHERE is_idle)
)
SELECT
  ROW_NUMBER() OVER (ORDER BY r.ts, r.ucpu, f.ts) AS id,
  IFNULL(MAX(r.ts, f.ts), r.ts) AS ts,
  IFNULL(MIN(r.ts + r.dur, f.ts + f.dur) - MAX(r.ts, f.ts), r.dur) AS dur,
  r.ucpu,
  r.cpu,
  r.utid,
  f.freq,
  f.counter_id
FROM running AS r
LEFT JOIN _cpu_freq_intervals AS f
  ON f.ucpu = r.ucpu
  AND f.ts >= IFNULL(
    (SELECT MAX(f2.ts) FROM _cpu_freq_intervals AS f2 WHERE f2.ucpu = r.ucpu AND f2.ts <= r.ts),
    r.ts)
  AND f.ts < r.ts + r.dur;
