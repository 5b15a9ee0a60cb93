-- How long threads spent in each scheduling state: over their whole time in the trace, or
-- within a window.

-- Per thread and state: the time spent in it, and its share of all the thread's states.
CREATE PERFETTO VIEW sched_time_in_state_for_thread(
  -- The thread (thread.id).
  utid JOINID(thread.id),
  -- All the time the trace has the thread's state for, in ns.
  total_runtime LONG,
  -- A scheduling state (Running, R, R+, S, D, ...).
  state STRING,
  -- Time spent in it, in ns.
  time_in_state LONG,
  -- Its share of total_runtime, in whole percent (rounded down).
  percentage_in_state LONG
) AS
-- The per (thread, state) sums come from one pass in C++ (query/thread_time_in_state_table.h),
-- when first used: a GROUP BY over thread_state sorts every row (~1 s of CPU per use on a
-- 1 M-event trace).
WITH totals AS (
  SELECT utid, SUM(time_in_state) AS total
  FROM __intrinsic_thread_time_in_state
  GROUP BY utid
)
SELECT
  p.utid,
  t.total AS total_runtime,
  p.state,
  p.time_in_state,
  p.time_in_state * 100 / t.total AS percentage_in_state
FROM __intrinsic_thread_time_in_state AS p
JOIN totals AS t USING (utid)
ORDER BY p.id;

-- Per thread: its share of time in each kind of state, in whole percent (rounded down, so the
-- shares may add up to a little less than 100).
CREATE PERFETTO VIEW sched_percentage_of_time_in_state(
  -- The thread (thread.id).
  utid JOINID(thread.id),
  -- Share of time Running.
  running LONG,
  -- Share of time runnable, waiting for a CPU (R).
  runnable LONG,
  -- Share of time runnable after being preempted (R+).
  runnable_preempted LONG,
  -- Share of time sleeping (S).
  sleeping LONG,
  -- Share of time in uninterruptible sleep (D).
  uninterruptible_sleep LONG,
  -- Share of time in any other state (T, t, X, Z, x, I, K, W, P, N).
  other LONG
) AS
SELECT
  utid,
  MAX(IIF(state = 'Running', percentage_in_state, NULL)) AS running,
  MAX(IIF(state = 'R', percentage_in_state, NULL)) AS runnable,
  MAX(IIF(state = 'R+', percentage_in_state, NULL)) AS runnable_preempted,
  MAX(IIF(state = 'S', percentage_in_state, NULL)) AS sleeping,
  MAX(IIF(state = 'D', percentage_in_state, NULL)) AS uninterruptible_sleep,
  SUM(IIF(state IN ('T', 't', 'X', 'Z', 'x', 'I', 'K', 'W', 'P', 'N'), time_in_state, NULL))
    * 100 / MAX(total_runtime) AS other
FROM sched_time_in_state_for_thread
GROUP BY utid;

-- Time one thread spent in each (state, io_wait, blocked_function) within [ts, ts + dur),
-- longest first.
CREATE PERFETTO FUNCTION sched_time_in_state_for_thread_in_interval(
  -- The window's start (trace clock, ns).
  ts TIMESTAMP,
  -- The window's duration, in ns.
  dur DURATION,
  -- The thread (thread.id).
  utid JOINID(thread.id)
)
RETURNS TABLE(
  -- A scheduling state (sched_state_to_human_readable_string names it).
  state STRING,
  -- For D: 1 when waiting for I/O, 0 when not, NULL when unknown.
  io_wait BOOL,
  -- For D: the kernel function blocked in, when known.
  blocked_function STRING,
  -- Time spent so in the window, in ns.
  dur DURATION
) AS
SELECT
  state,
  io_wait,
  blocked_function,
  SUM(MIN(ts + dur, $ts + $dur) - MAX(ts, $ts)) AS dur
FROM thread_state
WHERE utid = $utid AND dur > 0 AND ts < $ts + $dur AND ts + dur > $ts
GROUP BY state, io_wait, blocked_function
ORDER BY dur DESC;

-- Time one thread spent in each (state, io_wait, CPU, blocked_function) within
-- [ts, ts + dur), longest first.
CREATE PERFETTO FUNCTION sched_time_in_state_and_cpu_for_thread_in_interval(
  -- The window's start (trace clock, ns).
  ts TIMESTAMP,
  -- The window's duration, in ns.
  dur DURATION,
  -- The thread (thread.id).
  utid JOINID(thread.id)
)
RETURNS TABLE(
  -- A scheduling state.
  state STRING,
  -- For D: 1 when waiting for I/O, 0 when not, NULL when unknown.
  io_wait BOOL,
  -- The CPU it ran on (Running) or was woken to (R); NULL otherwise.
  cpu LONG,
  -- For D: the kernel function blocked in, when known.
  blocked_function STRING,
  -- Time spent so in the window, in ns.
  dur DURATION
) AS
SELECT
  state,
  io_wait,
  cpu,
  blocked_function,
  SUM(MIN(ts + dur, $ts + $dur) - MAX(ts, $ts)) AS dur
FROM thread_state
WHERE utid = $utid AND dur > 0 AND ts < $ts + $dur AND ts + dur > $ts
GROUP BY state, io_wait, cpu, blocked_function
ORDER BY dur DESC;

-- How one CPU's running stretches within [ts, ts + dur) ended: time per end_state.
CREATE PERFETTO FUNCTION sched_time_in_state_for_cpu_in_interval(
  -- The CPU number.
  cpu LONG,
  -- The window's start (trace clock, ns).
  ts TIMESTAMP,
  -- The window's duration, in ns.
  dur LONG
)
RETURNS TABLE(
  -- How the running stretch ended (sched.end_state).
  end_state STRING,
  -- Running time, in the window, of stretches that ended so, in ns.
  dur LONG
) AS
SELECT end_state, SUM(MIN(ts + dur, $ts + $dur) - MAX(ts, $ts)) AS dur
FROM sched
WHERE cpu = $cpu AND dur != -1 AND ts < $ts + $dur AND ts + dur > $ts
GROUP BY end_state;
