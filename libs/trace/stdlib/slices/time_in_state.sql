-- What each thread slice's thread was doing during it: time per scheduling state.

INCLUDE PERFETTO MODULE slices.with_context;

-- Per thread slice (with a duration, not on the idle task) and (state, io_wait,
-- blocked_function): the time its thread spent so during the slice.
CREATE PERFETTO VIEW thread_slice_time_in_state(
  -- The slice (slice.id).
  id JOINID(slice.id),
  -- Its name.
  name STRING,
  -- Its thread (thread.id).
  utid JOINID(thread.id),
  -- The thread's name.
  thread_name STRING,
  -- The thread's process (process.id).
  upid JOINID(process.id),
  -- The process's name.
  process_name STRING,
  -- A scheduling state (sched_state_to_human_readable_string names it).
  state STRING,
  -- For D: 1 when waiting for I/O, 0 when not, NULL when unknown.
  io_wait BOOL,
  -- For D: the kernel function blocked in, when known.
  blocked_function STRING,
  -- Time the thread spent so during the slice, in ns.
  dur DURATION
) AS
SELECT
  sl.id,
  sl.name,
  sl.utid,
  sl.thread_name,
  sl.upid,
  sl.process_name,
  st.state,
  st.io_wait,
  st.blocked_function,
  SUM(MIN(st.ts + st.dur, sl.ts + sl.dur) - MAX(st.ts, sl.ts)) AS dur
FROM thread_slice AS sl
JOIN thread_state AS st
  ON st.utid = sl.utid AND st.ts < sl.ts + sl.dur AND st.ts + st.dur > sl.ts
WHERE sl.utid > 0 AND sl.dur > 0 AND st.dur > 0
GROUP BY sl.id, st.state, st.io_wait, st.blocked_function
ORDER BY sl.id;
