-- How CPUs split their time between idle states, from the sysfs cpuidle residency counters
-- (cpu_idle_state tracks "cpuidle<cpu>.<state>", cumulative microseconds per state).

-- Each residency sample after a CPU state's first: the time spent in the state since the
-- previous sample and the length of that window, both in microseconds.
CREATE PERFETTO TABLE _linux_cpu_idle_residency_deltas AS
SELECT
  track_id,
  ts,
  machine_id,
  cpu,
  state,
  value - prev_value AS residency,
  (ts - prev_ts) / 1000 AS time_slice
FROM (
  SELECT
    c.track_id,
    c.ts,
    t.machine_id,
    t.cpu,
    substr(t.name, instr(t.name, '.') + 1) AS state,
    c.value,
    LAG(c.value) OVER (PARTITION BY c.track_id ORDER BY c.ts) AS prev_value,
    LAG(c.ts) OVER (PARTITION BY c.track_id ORDER BY c.ts) AS prev_ts
  FROM counter AS c
  JOIN cpu_counter_track AS t ON t.id = c.track_id
  WHERE t.type = 'cpu_idle_state'
)
WHERE prev_ts IS NOT NULL;

-- For each CPU and idle state, the share of each window between two residency samples the CPU
-- spent in the state. C0 (running) is what the other states leave of the window.
CREATE PERFETTO TABLE linux_per_cpu_idle_time_in_state_counters(
  -- End of the window (the sample's timestamp).
  ts TIMESTAMP,
  -- The machine the CPU belongs to.
  machine_id LONG,
  -- The idle state's name (C0 for running).
  state STRING,
  -- The CPU.
  cpu LONG,
  -- Percentage of the window the CPU spent in this state.
  idle_percentage DOUBLE,
  -- Time spent in this state during the window, in microseconds.
  total_residency DOUBLE,
  -- The window's length, in microseconds.
  time_slice LONG
) AS
SELECT ts, machine_id, state, cpu, idle_percentage, total_residency, time_slice
FROM (
  SELECT
    0 AS is_c0,
    track_id,
    ts,
    machine_id,
    state,
    cpu,
    residency * 100.0 / time_slice AS idle_percentage,
    residency * 1.0 AS total_residency,
    time_slice
  FROM _linux_cpu_idle_residency_deltas
  WHERE time_slice > 0
  UNION ALL
  SELECT
    1 AS is_c0,
    NULL AS track_id,
    ts,
    machine_id,
    'C0' AS state,
    cpu,
    (MAX(time_slice) - SUM(residency)) * 100.0 / MAX(time_slice) AS idle_percentage,
    (MAX(time_slice) - SUM(residency)) * 1.0 AS total_residency,
    MAX(time_slice) AS time_slice
  FROM _linux_cpu_idle_residency_deltas
  WHERE time_slice > 0
  GROUP BY ts, machine_id, cpu
)
ORDER BY is_c0, track_id, ts, cpu;

-- For each idle state, the share of each window all CPUs of a machine together spent in it (a
-- CPU without the state counts as spending none of its window there); residency and window
-- are given per CPU on average.
CREATE PERFETTO TABLE linux_cpu_idle_time_in_state_counters(
  -- End of the window (the sample's timestamp).
  ts TIMESTAMP,
  -- The machine.
  machine_id LONG,
  -- The idle state's name (C0 for running).
  state STRING,
  -- Percentage of the window all CPUs spent in this state.
  idle_percentage DOUBLE,
  -- Time spent in this state during the window per CPU on average, in microseconds.
  total_residency DOUBLE,
  -- The window's length per CPU on average, in microseconds.
  time_slice LONG
) AS
WITH
  cpus AS (
    SELECT machine_id, COUNT(*) AS cpu_count FROM cpu GROUP BY machine_id
  ),
  -- Every CPU's window, whatever states it has: each has exactly one C0 row per window.
  windows AS (
    SELECT ts, machine_id, SUM(time_slice) AS all_cpus_time
    FROM linux_per_cpu_idle_time_in_state_counters
    WHERE state = 'C0'
    GROUP BY ts, machine_id
  )
SELECT
  s.ts,
  s.machine_id,
  s.state,
  SUM(s.total_residency) * 100.0 / w.all_cpus_time AS idle_percentage,
  SUM(s.total_residency) / cpus.cpu_count AS total_residency,
  w.all_cpus_time / cpus.cpu_count AS time_slice
FROM linux_per_cpu_idle_time_in_state_counters AS s
JOIN windows AS w USING (ts, machine_id)
JOIN cpus USING (machine_id)
GROUP BY s.ts, s.machine_id, s.state
ORDER BY s.ts, s.machine_id, s.state;
