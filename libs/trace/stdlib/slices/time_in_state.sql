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
-- Summed in C++, one pass per thread (query/thread_slice_time_tables.h), when first used: the
-- join of every thread slice with its thread's states took ~15 s of CPU on a 1 M-event trace.
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
  st.dur
FROM __intrinsic_thread_slice_state_time AS st
JOIN thread_slice AS sl ON sl.id = st.slice_id
ORDER BY st.id;
