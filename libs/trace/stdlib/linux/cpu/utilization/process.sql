-- CPU utilisation of processes (all their threads together): busy time per period, and
-- cycles over the trace or a window.

INCLUDE PERFETTO MODULE linux.cpu.utilization.general;
INCLUDE PERFETTO MODULE linux.cpu.utilization.thread_cpu;
INCLUDE PERFETTO MODULE time.conversion;

-- How much CPU one process used per period of `interval` ns (a running stretch counts in the
-- period it starts in).
CREATE PERFETTO FUNCTION cpu_process_utilization_per_period(
  -- The period's length, in ns.
  interval LONG,
  -- The process (process.id).
  upid JOINID(process.id)
)
RETURNS TABLE(
  -- The period's start (trace clock, ns).
  ts TIMESTAMP,
  -- Running time of its threads over (period x number of CPUs): 0 to 1.
  utilization DOUBLE,
  -- Running time of its threads over the period: 0 to the number of CPUs.
  unnormalized_utilization DOUBLE
) AS
SELECT ts, utilization, unnormalized_utilization
FROM _cpu_avg_utilization_per_period!($interval, (
  SELECT s.ts, s.ts_end FROM sched AS s JOIN thread AS t USING (utid)
  WHERE t.upid = $upid AND s.dur > 0 AND NOT t.is_idle
));

-- How much CPU one process used per second.
CREATE PERFETTO FUNCTION cpu_process_utilization_per_second(
  -- The process (process.id).
  upid JOINID(process.id)
)
RETURNS TABLE(
  -- The second's start (trace clock, ns).
  ts TIMESTAMP,
  -- Running time of its threads over (1 s x number of CPUs): 0 to 1.
  utilization DOUBLE,
  -- Running time of its threads over 1 s.
  unnormalized_utilization DOUBLE
) AS
SELECT ts, utilization, unnormalized_utilization
FROM cpu_process_utilization_per_period(time_from_s(1), $upid);

-- CPU cycles and frequencies per process over the whole trace.
CREATE PERFETTO VIEW cpu_cycles_per_process(
  -- The process (process.id).
  upid JOINID(process.id),
  -- CPU cycles its threads used, in thousandths.
  millicycles LONG,
  -- CPU cycles its threads used, in millions.
  megacycles LONG,
  -- Time its threads ran, in ns.
  runtime DURATION,
  -- The lowest frequency they ran at, in kHz.
  min_freq LONG,
  -- The highest frequency they ran at, in kHz.
  max_freq LONG,
  -- The time-weighted average frequency, in kHz.
  avg_freq LONG
) AS
SELECT t.upid, _cpu_cycles_rollup_columns!()
FROM cpu_cycles_per_thread_per_cpu AS c
JOIN thread AS t USING (utid)
WHERE t.upid IS NOT NULL
GROUP BY t.upid;

-- CPU cycles and frequencies per process within [ts, ts + dur).
CREATE PERFETTO FUNCTION cpu_cycles_per_process_in_interval(
  -- The window's start (trace clock, ns).
  ts TIMESTAMP,
  -- The window's duration, in ns.
  dur LONG
)
RETURNS TABLE(
  -- The process (process.id).
  upid JOINID(process.id),
  -- CPU cycles its threads used in the window, in thousandths.
  millicycles LONG,
  -- CPU cycles its threads used in the window, in millions.
  megacycles LONG,
  -- Time its threads ran in the window, in ns.
  runtime DURATION,
  -- Of runtime, the time the device was not suspended, in ns.
  awake_runtime DURATION,
  -- The lowest frequency they ran at, in kHz.
  min_freq LONG,
  -- The highest frequency they ran at, in kHz.
  max_freq LONG,
  -- The time-weighted average frequency, in kHz.
  avg_freq LONG
) AS
WITH clipped AS (
  SELECT t.upid, c.freq, c.ts, c.dur
  FROM _cpu_freq_pieces_in_window!($ts, $dur) AS c
  JOIN thread AS t USING (utid)
  WHERE t.upid IS NOT NULL
)
SELECT upid, _cpu_cycles_columns!()
FROM clipped
GROUP BY upid;

-- How much of [ts, ts + dur) each process's threads ran, counting only time the device was
-- awake.
CREATE PERFETTO FUNCTION cpu_process_utilization_in_interval(
  -- The window's start (trace clock, ns).
  ts TIMESTAMP,
  -- The window's duration, in ns.
  dur LONG
)
RETURNS TABLE(
  -- The process (process.id).
  upid JOINID(process.id),
  -- Its name.
  process_name STRING,
  -- Time its threads ran while the device was awake, in ns.
  awake_dur LONG,
  -- awake_dur as a percentage of the window's awake time and all CPUs (0 to 100).
  awake_utilization DOUBLE,
  -- awake_dur as a percentage of the window's awake time (0 to 100 per CPU).
  awake_unnormalized_utilization DOUBLE
) AS
SELECT
  c.upid,
  p.name AS process_name,
  c.awake_runtime AS awake_dur,
  _cpu_awake_utilization_columns!(c.awake_runtime, $ts, $dur)
FROM cpu_cycles_per_process_in_interval($ts, $dur) AS c
JOIN process AS p USING (upid);
