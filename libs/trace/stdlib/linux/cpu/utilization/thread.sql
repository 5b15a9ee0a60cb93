-- CPU utilisation of single threads: busy time per period, and cycles over the trace or a
-- window.

INCLUDE PERFETTO MODULE linux.cpu.utilization.general;
INCLUDE PERFETTO MODULE linux.cpu.utilization.thread_cpu;
INCLUDE PERFETTO MODULE time.conversion;

-- How much CPU one thread used per period of `interval` ns (a running stretch counts in the
-- period it starts in).
CREATE PERFETTO FUNCTION cpu_thread_utilization_per_period(
  -- The period's length, in ns.
  interval LONG,
  -- The thread (thread.id).
  utid JOINID(thread.id)
)
RETURNS TABLE(
  -- The period's start (trace clock, ns).
  ts TIMESTAMP,
  -- Running time over (period x number of CPUs): 0 to 1.
  utilization DOUBLE,
  -- Running time over the period: 0 to 1 for one thread.
  unnormalized_utilization DOUBLE
) AS
SELECT ts, utilization, unnormalized_utilization
FROM _cpu_avg_utilization_per_period!($interval, (
  SELECT ts, ts_end FROM sched WHERE utid = $utid AND dur > 0
));

-- How much CPU one thread used per second.
CREATE PERFETTO FUNCTION cpu_thread_utilization_per_second(
  -- The thread (thread.id).
  utid JOINID(thread.id)
)
RETURNS TABLE(
  -- The second's start (trace clock, ns).
  ts TIMESTAMP,
  -- Running time over (1 s x number of CPUs): 0 to 1.
  utilization DOUBLE,
  -- Running time over 1 s.
  unnormalized_utilization DOUBLE
) AS
SELECT ts, utilization, unnormalized_utilization
FROM cpu_thread_utilization_per_period(time_from_s(1), $utid);

-- CPU cycles and frequencies per thread over the whole trace.
CREATE PERFETTO VIEW cpu_cycles_per_thread(
  -- The thread (thread.id).
  utid JOINID(thread.id),
  -- CPU cycles it used, in thousandths.
  millicycles LONG,
  -- CPU cycles it used, in millions.
  megacycles LONG,
  -- Time it ran, in ns.
  runtime DURATION,
  -- The lowest frequency it ran at, in kHz.
  min_freq LONG,
  -- The highest frequency it ran at, in kHz.
  max_freq LONG,
  -- The time-weighted average frequency, in kHz.
  avg_freq LONG
) AS
SELECT utid, _cpu_cycles_rollup_columns!()
FROM cpu_cycles_per_thread_per_cpu
GROUP BY utid;

-- CPU cycles and frequencies per thread within [ts, ts + dur).
CREATE PERFETTO FUNCTION cpu_cycles_per_thread_in_interval(
  -- The window's start (trace clock, ns).
  ts TIMESTAMP,
  -- The window's duration, in ns.
  dur LONG
)
RETURNS TABLE(
  -- The thread (thread.id).
  utid JOINID(thread.id),
  -- CPU cycles it used in the window, in thousandths.
  millicycles LONG,
  -- CPU cycles it used in the window, in millions.
  megacycles LONG,
  -- Time it ran in the window, in ns.
  runtime DURATION,
  -- Of runtime, the time the device was not suspended, in ns.
  awake_runtime DURATION,
  -- The lowest frequency it ran at, in kHz.
  min_freq LONG,
  -- The highest frequency it ran at, in kHz.
  max_freq LONG,
  -- The time-weighted average frequency, in kHz.
  avg_freq LONG
) AS
SELECT utid, _cpu_cycles_columns!()
FROM _cpu_freq_pieces_in_window!($ts, $dur)
GROUP BY utid;

-- How much of [ts, ts + dur) each thread ran, counting only time the device was awake.
CREATE PERFETTO FUNCTION cpu_thread_utilization_in_interval(
  -- The window's start (trace clock, ns).
  ts TIMESTAMP,
  -- The window's duration, in ns.
  dur LONG
)
RETURNS TABLE(
  -- The thread's process (process.id).
  upid JOINID(process.id),
  -- The thread (thread.id).
  utid JOINID(thread.id),
  -- Its name.
  thread_name STRING,
  -- Time it ran while the device was awake, in ns.
  awake_dur LONG,
  -- awake_dur as a percentage of the window's awake time and all CPUs (0 to 100).
  awake_utilization DOUBLE,
  -- awake_dur as a percentage of the window's awake time (0 to 100 per CPU).
  awake_unnormalized_utilization DOUBLE
) AS
SELECT
  t.upid,
  c.utid,
  t.name AS thread_name,
  c.awake_runtime AS awake_dur,
  _cpu_awake_utilization_columns!(c.awake_runtime, $ts, $dur)
FROM cpu_cycles_per_thread_in_interval($ts, $dur) AS c
JOIN thread AS t USING (utid);
