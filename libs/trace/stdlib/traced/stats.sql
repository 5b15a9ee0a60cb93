-- Latencies of traced's clone operations, from the service's own trace stats.

-- When each (machine, trace) context's clone started, was triggered, and when each of its
-- buffers finished flushing for the clone: the non-zero timestamps the stats record.
CREATE PERFETTO TABLE _traced_clone_timestamps AS
SELECT
  machine_id,
  trace_id,
  MAX(IIF(name = 'traced_clone_started_timestamp_ns', value, NULL)) AS started_ts,
  MAX(IIF(name = 'traced_clone_trigger_timestamp_ns', value, NULL)) AS trigger_ts
FROM stats
WHERE name IN ('traced_clone_started_timestamp_ns', 'traced_clone_trigger_timestamp_ns')
  AND value > 0
GROUP BY machine_id, trace_id;

CREATE PERFETTO VIEW _traced_buffer_clone_done AS
SELECT machine_id, trace_id, idx AS buffer_id, value AS done_ts
FROM stats
WHERE name = 'traced_buf_clone_done_timestamp_ns' AND value > 0;

-- How long the flush of a cloned trace took, per buffer: from the start of the clone operation
-- to the end of that buffer's flush, per (machine_id, trace_id) context. Contexts missing either
-- timestamp have no rows.
CREATE PERFETTO TABLE traced_clone_flush_latency(
  -- Id of the buffer (as numbered in the trace config).
  buffer_id LONG,
  -- From the start of the clone operation to the end of the flush for this buffer.
  duration_ns LONG,
  -- Machine the stats came from.
  machine_id LONG,
  -- Trace the stats came from.
  trace_id LONG
) AS
SELECT b.buffer_id, b.done_ts - t.started_ts AS duration_ns, b.machine_id, b.trace_id
FROM _traced_buffer_clone_done AS b
JOIN _traced_clone_timestamps AS t USING (machine_id, trace_id)
WHERE t.started_ts IS NOT NULL
ORDER BY b.machine_id, b.trace_id, b.buffer_id;

-- How long finalizing a cloned trace took after the trigger that caused the clone, per buffer:
-- from the trigger to the end of that buffer's flush, per (machine_id, trace_id) context.
-- Contexts missing either timestamp have no rows.
CREATE PERFETTO TABLE traced_trigger_clone_flush_latency(
  -- Id of the buffer (as numbered in the trace config).
  buffer_id LONG,
  -- From the trigger that caused the clone operation to the end of the flush for this buffer.
  duration_ns LONG,
  -- Machine the stats came from.
  machine_id LONG,
  -- Trace the stats came from.
  trace_id LONG
) AS
SELECT b.buffer_id, b.done_ts - t.trigger_ts AS duration_ns, b.machine_id, b.trace_id
FROM _traced_buffer_clone_done AS b
JOIN _traced_clone_timestamps AS t USING (machine_id, trace_id)
WHERE t.trigger_ts IS NOT NULL
ORDER BY b.machine_id, b.trace_id, b.buffer_id;
