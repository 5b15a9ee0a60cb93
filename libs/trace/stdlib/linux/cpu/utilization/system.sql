-- System-wide CPU utilisation (what /proc/stat would say): busy time per period, and CPU
-- cycles over the whole trace or a window.

INCLUDE PERFETTO MODULE linux.cpu.utilization.general;
INCLUDE PERFETTO MODULE linux.cpu.utilization.thread_cpu;
INCLUDE PERFETTO MODULE time.conversion;

-- How busy all CPUs together were, per period of `interval` ns. A running stretch counts in the
-- period it starts in (clipped to that period), so the first and last periods may read low.
CREATE PERFETTO FUNCTION cpu_utilization_per_period(
  -- The period's length, in ns.
  interval LONG
)
RETURNS TABLE(
  -- The period's start (trace clock, ns).
  ts TIMESTAMP,
  -- Busy time over (period x number of CPUs): 0 to 1.
  utilization DOUBLE,
  -- Busy time over the period: 0 to the number of CPUs.
  unnormalized_utilization DOUBLE
) AS
SELECT ts, utilization, unnormalized_utilization
FROM _cpu_avg_utilization_per_period!($interval, (
  SELECT ts, ts_end FROM sched
  WHERE dur > 0 AND utid NOT IN (SELECT utid FROM thread WHERE is_idle)
));

-- How busy all CPUs together were, per second (cpu_utilization_per_period of 1 s).
CREATE PERFETTO VIEW cpu_utilization_per_second(
  -- The second's start (trace clock, ns).
  ts TIMESTAMP,
  -- Busy time over (1 s x number of CPUs): 0 to 1.
  utilization DOUBLE,
  -- Busy time over 1 s: 0 to the number of CPUs.
  unnormalized_utilization DOUBLE
) AS
SELECT ts, utilization, unnormalized_utilization
FROM cpu_utilization_per_period(time_from_s(1));

-- CPU cycles and frequencies over the whole trace, one row.
CREATE PERFETTO VIEW cpu_cycles(
  -- CPU cycles used by all threads, in thousandths.
  millicycles LONG,
  -- CPU cycles used by all threads, in millions.
  megacycles LONG,
  -- Time any thread ran on any CPU, in ns.
  runtime DURATION,
  -- The lowest frequency seen, in kHz.
  min_freq LONG,
  -- The highest frequency seen, in kHz.
  max_freq LONG,
  -- The time-weighted average frequency, in kHz.
  avg_freq LONG
) AS
SELECT _cpu_cycles_rollup_columns!()
FROM cpu_cycles_per_thread_per_cpu;

-- CPU cycles and frequencies within [ts, ts + dur), one row.
CREATE PERFETTO FUNCTION cpu_cycles_in_interval(
  -- The window's start (trace clock, ns).
  ts TIMESTAMP,
  -- The window's duration, in ns.
  dur LONG
)
RETURNS TABLE(
  -- CPU cycles used in the window, in thousandths.
  millicycles LONG,
  -- CPU cycles used in the window, in millions.
  megacycles LONG,
  -- Time any thread ran on any CPU in the window, in ns.
  runtime DURATION,
  -- Of runtime, the time the device was not suspended, in ns.
  awake_runtime DURATION,
  -- The lowest frequency seen, in kHz.
  min_freq LONG,
  -- The highest frequency seen, in kHz.
  max_freq LONG,
  -- The time-weighted average frequency, in kHz.
  avg_freq LONG
) AS
SELECT _cpu_cycles_columns!()
FROM _cpu_freq_pieces_in_window!($ts, $dur);
