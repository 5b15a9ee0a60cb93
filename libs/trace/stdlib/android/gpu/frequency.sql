-- GPU frequency over time, per GPU.

INCLUDE PERFETTO MODULE counters.intervals;

-- Each GPU's frequency as intervals: a sample holds until the GPU's next sample (the last one
-- until the end of the trace), with the previous and next frequencies.
CREATE PERFETTO TABLE android_gpu_frequency(
  -- When the frequency took effect (trace clock, ns).
  ts TIMESTAMP,
  -- How long it held, in ns.
  dur DURATION,
  -- The GPU (gpu_counter_track.gpu_id).
  gpu_id LONG,
  -- The frequency.
  gpu_freq LONG,
  -- The frequency before it, on the same GPU (NULL for the first).
  prev_gpu_freq LONG,
  -- The frequency after it, on the same GPU (NULL for the last).
  next_gpu_freq LONG
) AS
SELECT
  c.ts,
  c.dur,
  t.gpu_id,
  cast_int!(c.value) AS gpu_freq,
  cast_int!(LAG(c.value) OVER (PARTITION BY c.track_id ORDER BY c.ts)) AS prev_gpu_freq,
  cast_int!(c.next_value) AS next_gpu_freq
FROM counter_leading_intervals!((
  SELECT c.id, c.ts, c.track_id, c.value
  FROM counter AS c
  JOIN gpu_counter_track AS t ON t.id = c.track_id
  WHERE t.type = 'gpu_frequency'
)) AS c
JOIN gpu_counter_track AS t ON t.id = c.track_id
WHERE t.gpu_id IS NOT NULL
ORDER BY t.gpu_id, c.ts;
