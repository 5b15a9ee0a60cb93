-- Per-process memory counters as intervals: the building block of linux.memory.*.

-- Every sample of every process counter, lasting until the track's next sample (the last one
-- until just after the process ended, or the trace's end): ts, dur, upid, value, track_id,
-- name.
CREATE PERFETTO VIEW _all_counters_per_process AS
SELECT
  c.ts,
  LEAD(c.ts, 1, IFNULL(p.end_ts, trace_end()) + 1) OVER (PARTITION BY c.track_id ORDER BY c.ts)
    - c.ts AS dur,
  t.upid,
  c.value,
  c.track_id,
  t.name
FROM counter AS c
JOIN process_counter_track AS t ON t.id = c.track_id
JOIN process AS p ON p.upid = t.upid;
