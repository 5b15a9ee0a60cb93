-- CPU time, cycles and frequency of each thread on each CPU. Needs sched_switch and
-- cpu_frequency events in the trace.

INCLUDE PERFETTO MODULE linux.cpu.utilization.general;

-- One row per (thread, CPU) the thread ran on.
CREATE PERFETTO VIEW cpu_cycles_per_thread_per_cpu(
  -- The thread (thread.id).
  utid JOINID(thread.id),
  -- The CPU (cpu.id).
  ucpu JOINID(cpu.id),
  -- The CPU number.
  cpu LONG,
  -- CPU cycles used, in thousandths (running time x frequency).
  millicycles LONG,
  -- CPU cycles used, in millions.
  megacycles LONG,
  -- Time the thread ran on the CPU, in ns.
  runtime DURATION,
  -- The lowest frequency it ran at, in kHz.
  min_freq LONG,
  -- The highest frequency it ran at, in kHz.
  max_freq LONG,
  -- The time-weighted average frequency it ran at, in kHz.
  avg_freq LONG
) AS
-- The sums per (thread, CPU) come from one pass in C++ (query/cpu_freq_per_thread_tables.h),
-- when first used: grouping the split pieces sorted all of them (~0.3 s of CPU per use on a
-- 1 M-event trace).
SELECT
  utid,
  ucpu,
  ucpu AS cpu,
  cast_int!(millicycles) AS millicycles,
  cast_int!(millicycles / 1e9) AS megacycles,
  runtime,
  min_freq,
  max_freq,
  cast_int!(millicycles / (runtime / 1000)) AS avg_freq
FROM __intrinsic_thread_cpu_cycles
ORDER BY id;

-- The same per (thread, CPU) figures, within [ts, ts + dur) only. Meant for a few windows at
-- a time: each call scans every running stretch.
CREATE PERFETTO FUNCTION cpu_cycles_per_thread_per_cpu_in_interval(
  -- The window's start (trace clock, ns).
  ts TIMESTAMP,
  -- The window's duration, in ns.
  dur LONG
)
RETURNS TABLE(
  -- The thread (thread.id).
  utid JOINID(thread.id),
  -- The CPU (cpu.id).
  ucpu JOINID(cpu.id),
  -- The CPU number.
  cpu LONG,
  -- CPU cycles used in the window, in thousandths.
  millicycles LONG,
  -- CPU cycles used in the window, in millions.
  megacycles LONG,
  -- Time the thread ran on the CPU in the window, in ns.
  runtime DURATION,
  -- The lowest frequency it ran at, in kHz.
  min_freq LONG,
  -- The highest frequency it ran at, in kHz.
  max_freq LONG,
  -- The time-weighted average frequency, in kHz (over the time the frequency is known).
  avg_freq LONG
) AS
SELECT utid, ucpu, cpu, millicycles, megacycles, runtime, min_freq, max_freq, avg_freq
FROM (
  SELECT utid, ucpu, cpu, _cpu_cycles_columns!()
  FROM _cpu_freq_pieces_in_window!($ts, $dur)
  GROUP BY utid, ucpu
);

-- The cycle and frequency columns summed over rows of cpu_cycles_per_thread_per_cpu:
-- millicycles, megacycles, runtime, min_freq, max_freq and avg_freq (time-weighted).
CREATE PERFETTO MACRO _cpu_cycles_rollup_columns()
RETURNS _ProjectionFragment AS
  SUM(millicycles) AS millicycles,
  cast_int!(SUM(millicycles) / 1e9) AS megacycles,
  SUM(runtime) AS runtime,
  MIN(min_freq) AS min_freq,
  MAX(max_freq) AS max_freq,
  cast_int!(SUM(millicycles) / (SUM(runtime) / 1000)) AS avg_freq;
