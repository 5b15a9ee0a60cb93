-- Cpu time per Android uid and cpu cluster (the cpu_per_uid data source): its tracks and the
-- cpu use between consecutive samples.

INCLUDE PERFETTO MODULE counters.intervals;

-- One row per (uid, cluster) track of the cpu_per_uid data source.
CREATE PERFETTO TABLE android_cpu_per_uid_track(
  -- The track (counter_track.id); join with android_cpu_per_uid_counter.track_id.
  id LONG,
  -- The uid doing the work (the first uid of its range for shared / isolated uids).
  uid LONG,
  -- The cpu cluster, from 0; larger numbers usually mean larger cores.
  cluster LONG,
  -- Cpu time the uid used on the cluster during the trace, in ms.
  total_cpu_millis LONG,
  -- A package of the uid (one of them if several share it); NULL for uids below 10000.
  package_name STRING
) AS
SELECT
  t.track_id AS id,
  t.uid,
  t.cluster,
  t.total_cpu_millis,
  (
    SELECT p.package_name
    FROM package_list AS p
    WHERE p.uid = t.uid % 100000 AND p.uid >= 10000
    LIMIT 1
  ) AS package_name
FROM __intrinsic_android_cpu_per_uid_track AS t;

-- One row per sample of a cpu_per_uid track that has a next sample: the cpu time used until
-- that next sample.
CREATE PERFETTO VIEW android_cpu_per_uid_counter(
  -- The sample (counter.id).
  id LONG,
  -- When the sample was taken.
  ts LONG,
  -- Until the track's next sample, in ns.
  dur LONG,
  -- The track (android_cpu_per_uid_track.id).
  track_id LONG,
  -- Cpu time used until the next sample, in ms.
  diff_ms LONG,
  -- Cpu use over the interval: 1.0 is one core fully busy.
  cpu_ratio DOUBLE
) AS
WITH
  intervals AS (
    SELECT *
    FROM counter_leading_intervals!((
      SELECT c.id, c.ts, c.track_id, c.value
      FROM counter AS c
      JOIN android_cpu_per_uid_track AS t ON t.id = c.track_id
    ))
  )
SELECT
  id,
  ts,
  dur,
  track_id,
  next_value - value AS diff_ms,
  (next_value - value) * 1e6 / dur AS cpu_ratio
FROM intervals
WHERE next_value IS NOT NULL;
