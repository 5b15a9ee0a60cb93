-- GPU memory used by each process over time.

INCLUDE PERFETTO MODULE counters.intervals;

-- Each process's GPU memory as intervals: a sample holds until the process's next sample (the
-- last one until the end of the trace).
CREATE PERFETTO TABLE android_gpu_memory_per_process(
  -- When the amount was sampled (trace clock, ns).
  ts TIMESTAMP,
  -- How long it held, in ns.
  dur DURATION,
  -- The process (process.id).
  upid JOINID(process.id),
  -- GPU memory in use by the process, in bytes.
  gpu_memory LONG
) AS
SELECT c.ts, c.dur, t.upid, cast_int!(c.value) AS gpu_memory
FROM counter_leading_intervals!((
  SELECT c.id, c.ts, c.track_id, c.value
  FROM counter AS c
  JOIN process_counter_track AS t ON t.id = c.track_id
  WHERE t.type = 'process_gpu_memory'
)) AS c
JOIN process_counter_track AS t ON t.id = c.track_id;
