-- GPU memory used by each process over time.

INCLUDE PERFETTO MODULE linux.memory.general;

-- Each process's GPU memory (its "GPU Memory" counter) as intervals: a sample holds until the
-- process's next sample; the last one until just after the process ended (or the trace's end).
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
SELECT ts, dur, upid, cast_int!(value) AS gpu_memory
FROM _all_counters_per_process
WHERE name = 'GPU Memory';
