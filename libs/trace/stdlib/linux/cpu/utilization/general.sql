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

-- Every finished stretch of a (non-idle) thread running on a CPU, split where the CPU's
-- frequency changed: id, ts, dur, ucpu, cpu, utid, freq (kHz; NULL where unknown) and the
-- frequency sample (counter_id). The CPU's frequency intervals are cpu_frequency_counters' plus
-- a NULL-frequency one from the trace's start to its first sample.
CREATE PERFETTO VIEW _cpu_freq_per_thread AS
-- Split in C++, one pass (query/cpu_freq_per_thread_tables.h), when first used: a frequency
-- lookup per sched row and a window numbering the pieces took ~0.5 s of CPU on a 1 M-event
-- trace.
SELECT id + 1 AS id, ts, dur, ucpu, ucpu AS cpu, utid, freq, counter_id
FROM __intrinsic_cpu_freq_per_thread;

-- The pieces of _cpu_freq_per_thread that overlap [ts, ts + dur), clipped to it: id, utid,
-- ucpu, cpu, freq, ts (the later start) and dur (the overlap).
CREATE PERFETTO MACRO _cpu_freq_pieces_in_window(ts Expr, dur Expr)
RETURNS TableOrSubquery AS (
  SELECT
    id, utid, ucpu, cpu, freq,
    MAX(ts, $ts) AS ts,
    MIN(ts + dur, $ts + $dur) - MAX(ts, $ts) AS dur
  FROM _cpu_freq_per_thread
  WHERE ts < $ts + $dur AND ts + dur > $ts
);

-- The cycle and frequency columns of a group of running pieces with ts, dur and freq columns
-- (e.g. _cpu_freq_pieces_in_window!'s rows): millicycles (dur x freq / 1000, summed),
-- megacycles, runtime, awake_runtime (runtime not suspended), min_freq, max_freq and avg_freq
-- (time-weighted over the pieces whose frequency is known).
CREATE PERFETTO MACRO _cpu_cycles_columns()
RETURNS _ProjectionFragment AS
  cast_int!(SUM(dur * freq / 1000)) AS millicycles,
  cast_int!(SUM(dur * freq / 1000) / 1e9) AS megacycles,
  SUM(dur) AS runtime,
  SUM(to_monotonic(ts + dur) - to_monotonic(ts)) AS awake_runtime,
  MIN(freq) AS min_freq,
  MAX(freq) AS max_freq,
  cast_int!(SUM(dur * freq / 1000) / (SUM(IIF(freq IS NOT NULL, dur, NULL)) / 1000)) AS avg_freq;

-- awake_utilization and awake_unnormalized_utilization: `awake_dur` as a percentage of the
-- awake time of [ts, ts + dur), over all CPUs and per CPU, rounded to 6 decimals.
CREATE PERFETTO MACRO _cpu_awake_utilization_columns(awake_dur Expr, ts Expr, dur Expr)
RETURNS _ProjectionFragment AS
  round($awake_dur * 100.0 / (to_monotonic($ts + $dur) - to_monotonic($ts))
        / (SELECT MAX(cpu) + 1 FROM cpu), 6) AS awake_utilization,
  round($awake_dur * 100.0 / (to_monotonic($ts + $dur) - to_monotonic($ts)), 6)
    AS awake_unnormalized_utilization;
