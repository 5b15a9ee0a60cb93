-- How many CPUs were busy and how many threads waited, over time.

INCLUDE PERFETTO MODULE intervals.overlap;

-- Number of threads in the runnable state ('R'), as a step counter: each row holds from its ts
-- to the next row's.
CREATE PERFETTO TABLE sched_runnable_thread_count(
  -- When the count changed (trace clock, ns).
  ts TIMESTAMP,
  -- How many threads were runnable (waiting for a CPU) from ts on.
  runnable_thread_count LONG
) AS
WITH waiting AS (SELECT ts, dur FROM thread_state WHERE state = 'R')
SELECT ts, value AS runnable_thread_count
FROM intervals_overlap_count!(waiting, ts, dur)
ORDER BY ts;

-- Number of threads in uninterruptible sleep ('D'), as a step counter.
CREATE PERFETTO TABLE sched_uninterruptible_sleep_thread_count(
  -- When the count changed (trace clock, ns).
  ts TIMESTAMP,
  -- How many threads were in uninterruptible sleep (D) from ts on.
  uninterruptible_sleep_thread_count LONG
) AS
WITH blocked AS (SELECT ts, dur FROM thread_state WHERE state = 'D')
SELECT ts, value AS uninterruptible_sleep_thread_count
FROM intervals_overlap_count!(blocked, ts, dur)
ORDER BY ts;

-- Number of CPUs running something other than their idle (swapper) thread, as a step counter.
CREATE PERFETTO TABLE sched_active_cpu_count(
  -- When the count changed (trace clock, ns).
  ts TIMESTAMP,
  -- How many CPUs were running a thread other than idle from ts on.
  active_cpu_count LONG
) AS
WITH busy AS (
  SELECT ts, dur
  FROM sched
  WHERE utid NOT IN (SELECT utid FROM thread WHERE is_idle)
)
SELECT ts, value AS active_cpu_count
FROM intervals_overlap_count!(busy, ts, dur)
ORDER BY ts;
