-- How much CPU time each thread slice got: the part of it its thread spent running.

INCLUDE PERFETTO MODULE slices.with_context;

-- One row per thread slice during which its thread ran, with the time it ran.
CREATE PERFETTO VIEW thread_slice_cpu_time(
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
  -- Time the thread ran during the slice, in ns.
  cpu_time LONG
) AS
-- Summed in C++, one pass per thread (query/thread_slice_time_tables.h), when first used: the
-- lookup of every thread slice's sched rows took ~9 s of CPU on a 1 M-event trace.
SELECT sl.id, sl.name, sl.utid, sl.thread_name, sl.upid, sl.process_name, c.cpu_time
FROM __intrinsic_thread_slice_sched_time AS c
JOIN thread_slice AS sl ON sl.id = c.slice_id
ORDER BY c.id;
