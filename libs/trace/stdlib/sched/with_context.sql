-- Scheduling slices with the thread and process that ran.

INCLUDE PERFETTO MODULE std.thread.with_context;

-- Every stretch of a thread running on a CPU (sched), with the thread's and its process's
-- names. Each row has a matching 'Running' row in thread_state.
CREATE PERFETTO VIEW sched_with_thread_process(
  -- The running stretch (sched.id).
  id ID(sched.id),
  -- When it began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it lasted, in ns; -1 when the trace ends while it runs.
  dur DURATION,
  -- The thread that ran (thread.id).
  utid JOINID(thread.id),
  -- Its name.
  thread_name STRING,
  -- Its process (process.id).
  upid JOINID(process.id),
  -- The process's name.
  process_name STRING,
  -- The CPU number it ran on (join cpu on ucpu for multi-machine traces).
  cpu LONG,
  -- The thread's state when switched out: R runnable, S sleeping, D uninterruptible, T
  -- stopped, t traced, X exiting, P parked, W waking, I idle, N no load contribution, K
  -- wakekill, Z zombie (and + for preempted).
  end_state STRING,
  -- The kernel priority it ran at (lower is higher).
  priority LONG
) AS
SELECT
  s.id,
  s.ts,
  s.dur,
  s.utid,
  t.thread_name,
  t.upid,
  t.process_name,
  s.cpu,
  s.end_state,
  s.priority
FROM _thread_with_process AS t
JOIN sched AS s USING (utid);
