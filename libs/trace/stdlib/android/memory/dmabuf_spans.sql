-- Per-process dmabuf RSS over time: the mem.dmabuf_rss process counter as spans (each value
-- holds until the next).

INCLUDE PERFETTO MODULE counters.intervals;

-- One row per mem.dmabuf_rss value of a process: from its sample to the next one.
CREATE PERFETTO TABLE _dmabuf_spans(
  -- The process.
  upid JOINID(process.id),
  -- When the value was sampled.
  ts TIMESTAMP,
  -- How long it held: until the next sample (counter_leading_intervals).
  dur DURATION,
  -- The process's dmabuf RSS (bytes).
  dmabuf_rss LONG
) AS
WITH
  dmabuf_counters AS (
    SELECT c.*
    FROM counter c
    JOIN counter_track t ON t.id = c.track_id AND t.name = 'mem.dmabuf_rss'
  )
SELECT t.upid, i.ts, i.dur, CAST(i.value AS INTEGER) AS dmabuf_rss
FROM counter_leading_intervals!(dmabuf_counters) i
JOIN process_counter_track t ON i.track_id = t.id;
