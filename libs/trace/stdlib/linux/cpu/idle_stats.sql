-- How each CPU used its idle states (C-states): how often, how long.

INCLUDE PERFETTO MODULE linux.cpu.idle;

-- Per CPU and idle state: entries, total and average time, and share of the CPU's time.
CREATE PERFETTO VIEW cpu_idle_stats(
  -- The CPU number.
  cpu LONG,
  -- The idle state, numbered from 1 (cpuidle's state + 1; 0 would be active).
  state LONG,
  -- How many times the CPU entered it.
  count LONG,
  -- Total time in it, in ns.
  dur DURATION,
  -- Average time per entry, in ns.
  avg_dur DURATION,
  -- Its share of the CPU's time with a known state (active included), in percent.
  idle_percent DOUBLE
) AS
WITH
  per_state AS (
    SELECT cpu, idle + 1 AS state, COUNT(*) AS count, SUM(dur) AS dur, SUM(dur) / COUNT(*) AS avg_dur
    FROM cpu_idle_counters
    WHERE idle >= 0
    GROUP BY cpu, idle
  ),
  totals AS (SELECT cpu, SUM(dur) AS dur FROM cpu_idle_counters GROUP BY cpu)
SELECT p.cpu, p.state, p.count, p.dur, p.avg_dur, p.dur * 100.0 / t.dur AS idle_percent
FROM per_state AS p
JOIN totals AS t USING (cpu)
ORDER BY p.cpu, p.state;
