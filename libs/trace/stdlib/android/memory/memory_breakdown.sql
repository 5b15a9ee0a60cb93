-- What each process's memory counters (RSS anon / file / shmem, swap, Java heap, dmabuf RSS,
-- locked, GPU memory) held over its lifetime, with the share inherited from the zygote that
-- forked it taken out, and the same split by the process's OOM adjuster bucket.

INCLUDE PERFETTO MODULE android.oom_adjuster;
INCLUDE PERFETTO MODULE counters.intervals;

-- The process memory counter tracks this module reads, 'Heap size (KB)' renamed 'mem.heap'.
CREATE PERFETTO TABLE _android_breakdown_memory_tracks AS
SELECT
  id AS track_id,
  IIF(name = 'Heap size (KB)', 'mem.heap', name) AS name,
  upid
FROM process_counter_track
WHERE name IN ('mem.rss.anon', 'mem.swap', 'mem.rss.file', 'mem.rss.shmem', 'Heap size (KB)',
               'mem.dmabuf_rss', 'mem.locked', 'GPU Memory');

-- Their samples, in bytes (the heap is sampled in KB).
CREATE PERFETTO TABLE _android_breakdown_memory_samples AS
SELECT
  c.id,
  c.track_id,
  c.ts,
  IIF(t.name = 'mem.heap', cast_int!(c.value) * 1024, cast_int!(c.value)) AS value
FROM counter AS c
JOIN _android_breakdown_memory_tracks AS t USING (track_id);

-- One row per memory counter value of a process, as an interval clipped to the process's
-- lifetime. Processes forked from a primary zygote (zygote, zygote64) also get the value less
-- their zygote's average for the counters a fork shares copy-on-write (anon and file RSS,
-- swap, heap); a zygote without samples of a counter takes nothing off.
CREATE PERFETTO TABLE android_process_memory_intervals(
  -- The counter value (counter.id).
  id JOINID(counter.id),
  -- When the value began to hold, or the process started if later (trace clock, ns).
  ts TIMESTAMP,
  -- How long it held within the process's lifetime, in ns.
  dur DURATION,
  -- The process's name.
  process_name STRING,
  -- The process (process.id).
  upid JOINID(process.upid),
  -- The process's pid.
  pid JOINID(process.pid),
  -- The counter: 'mem.rss.anon', 'mem.rss.file', 'mem.rss.shmem', 'mem.swap', 'mem.heap',
  -- 'mem.dmabuf_rss', 'mem.locked' or 'GPU Memory'.
  memory_track_name STRING,
  -- The counter's track (track.id).
  track_id JOINID(track.id),
  -- The value, in bytes.
  value LONG,
  -- The value less the forking zygote's average (never below 0); the value itself for
  -- zygotes, other processes and counters not shared with the zygote.
  zygote_adjusted_value LONG,
  -- Whether the track ever jumps by more than 100 MiB between two samples (real, or an
  -- accounting glitch worth checking).
  track_has_spike_gt_100mib BOOL
) AS
WITH
  intervals AS (
    SELECT id AS counter_id, ts, dur, track_id, value, delta_value
    FROM counter_leading_intervals!(_android_breakdown_memory_samples)
  ),
  spiky_tracks AS (
    SELECT DISTINCT track_id FROM intervals WHERE ABS(delta_value) > 104857600
  ),
  clipped AS (
    SELECT
      i.counter_id,
      MAX(i.ts, COALESCE(p.start_ts, i.ts)) AS ts,
      MIN(i.ts + i.dur, COALESCE(p.end_ts, i.ts + i.dur)) - MAX(i.ts, COALESCE(p.start_ts, i.ts))
        AS dur,
      t.upid,
      t.name AS memory_track_name,
      i.track_id,
      i.value,
      s.track_id IS NOT NULL AS track_has_spike_gt_100mib
    FROM intervals AS i
    JOIN _android_breakdown_memory_tracks AS t USING (track_id)
    JOIN process AS p ON p.upid = t.upid
    LEFT JOIN spiky_tracks AS s USING (track_id)
  ),
  zygotes AS (
    SELECT upid FROM process WHERE name IN ('zygote', 'zygote64')
  ),
  zygote_averages AS (
    SELECT t.upid AS zygote_upid, t.name AS memory_track_name, AVG(c.value) AS average
    FROM _android_breakdown_memory_samples AS c
    JOIN _android_breakdown_memory_tracks AS t USING (track_id)
    WHERE t.upid IN (SELECT upid FROM zygotes)
      AND t.name IN ('mem.rss.anon', 'mem.swap', 'mem.rss.file', 'mem.heap')
    GROUP BY t.upid, t.name
  )
SELECT
  c.counter_id AS id,
  c.ts,
  c.dur,
  p.name AS process_name,
  c.upid,
  p.pid,
  c.memory_track_name,
  c.track_id,
  cast_int!(c.value) AS value,
  cast_int!(IIF(
    c.upid IN (SELECT upid FROM zygotes),
    c.value,
    MAX(0, c.value - cast_int!(COALESCE(z.average, 0)))
  )) AS zygote_adjusted_value,
  c.track_has_spike_gt_100mib
FROM clipped AS c
JOIN process AS p ON p.upid = c.upid
LEFT JOIN zygote_averages AS z
  ON z.zygote_upid = p.parent_upid
  AND p.parent_upid IN (SELECT upid FROM zygotes)
  AND z.memory_track_name = c.memory_track_name
WHERE c.dur > 0;

-- The process's OOM adjuster buckets, on each of its memory tracks (the span join's right
-- side).
CREATE PERFETTO TABLE _android_breakdown_oom_buckets AS
SELECT t.track_id, o.ts, o.dur, o.bucket
FROM android_oom_adj_intervals AS o
JOIN (SELECT DISTINCT track_id, upid FROM android_process_memory_intervals) AS t USING (upid)
WHERE o.dur > 0;

CREATE VIRTUAL TABLE _android_breakdown_memory_by_bucket USING SPAN_LEFT_JOIN(
  android_process_memory_intervals PARTITIONED track_id,
  _android_breakdown_oom_buckets PARTITIONED track_id
);

-- android_process_memory_intervals cut where the process's OOM adjuster bucket changes: what
-- each counter held while the process was cached, in the background, visible, ...
CREATE PERFETTO TABLE android_process_memory_intervals_by_oom_bucket(
  -- The row's id.
  id LONG,
  -- When the piece began (trace clock, ns).
  ts TIMESTAMP,
  -- Its length, in ns.
  dur DURATION,
  -- The process's name.
  process_name STRING,
  -- The process (process.id).
  upid JOINID(process.upid),
  -- The process's pid.
  pid JOINID(process.pid),
  -- The OOM adjuster bucket ('cached', 'background', ...); 'unknown' when no score is known.
  bucket STRING,
  -- The counter (as in android_process_memory_intervals).
  memory_track_name STRING,
  -- The counter's track (track.id).
  track_id JOINID(track.id),
  -- The counter value (counter.id).
  counter_id JOINID(counter.id),
  -- The value, in bytes.
  value LONG,
  -- The value less the forking zygote's average (as in android_process_memory_intervals).
  zygote_adjusted_value LONG,
  -- Whether the track ever jumps by more than 100 MiB between two samples.
  track_has_spike_gt_100mib BOOL
) AS
SELECT
  ROW_NUMBER() OVER () AS id,
  ts,
  dur,
  process_name,
  upid,
  pid,
  COALESCE(bucket, 'unknown') AS bucket,
  memory_track_name,
  track_id,
  id AS counter_id,
  value,
  zygote_adjusted_value,
  track_has_spike_gt_100mib
FROM _android_breakdown_memory_by_bucket
WHERE dur > 0;
