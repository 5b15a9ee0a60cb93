-- How many CPUs were busy and how many threads waited, over time.

INCLUDE PERFETTO MODULE intervals.overlap;

-- Number of threads in the runnable state ('R'), as a step counter: each row holds from its ts
-- to the next row's.
CREATE PERFETTO VIEW sched_runnable_thread_count(
  -- When the count changed (trace clock, ns).
  ts TIMESTAMP,
  -- How many threads were runnable (waiting for a CPU) from ts on.
  runnable_thread_count LONG
) AS
-- intervals_overlap_count! over the R states, counted in C++ (query/derived_tables.h) when
-- first used: the SQL macro sorts every edge of a million-event trace more than once.
SELECT ts, value AS runnable_thread_count FROM __intrinsic_sched_runnable_thread_count;

-- Number of threads in uninterruptible sleep ('D'), as a step counter.
CREATE PERFETTO VIEW sched_uninterruptible_sleep_thread_count(
  -- When the count changed (trace clock, ns).
  ts TIMESTAMP,
  -- How many threads were in uninterruptible sleep (D) from ts on.
  uninterruptible_sleep_thread_count LONG
) AS
-- intervals_overlap_count! over the D states, counted in C++ when first used.
SELECT ts, value AS uninterruptible_sleep_thread_count
FROM __intrinsic_sched_uninterruptible_sleep_thread_count;

-- Number of CPUs running something other than their idle (swapper) thread, as a step counter.
CREATE PERFETTO VIEW sched_active_cpu_count(
  -- When the count changed (trace clock, ns).
  ts TIMESTAMP,
  -- How many CPUs were running a thread other than idle from ts on.
  active_cpu_count LONG
) AS
-- intervals_overlap_count! over the sched rows of threads other than the idle ones, counted
-- in C++ when first used.
SELECT ts, value AS active_cpu_count FROM __intrinsic_sched_active_cpu_count;
