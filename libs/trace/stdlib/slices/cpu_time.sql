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
SELECT * FROM (
  SELECT
    ts.id,
    ts.name,
    ts.utid,
    ts.thread_name,
    ts.upid,
    ts.process_name,
    (
      SELECT SUM(MIN(s.ts + s.dur, ts.ts + ts.dur) - MAX(s.ts, ts.ts))
      FROM sched AS s
      WHERE s.utid = ts.utid AND s.dur > 0 AND s.ts < ts.ts + ts.dur AND s.ts + s.dur > ts.ts
    ) AS cpu_time
  FROM thread_slice AS ts
  WHERE ts.utid > 0 AND ts.dur > 0
)
WHERE cpu_time IS NOT NULL
ORDER BY id;
