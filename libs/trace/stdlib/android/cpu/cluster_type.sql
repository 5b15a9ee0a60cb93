-- CPU cluster types (little, medium, big) of Android devices.

-- One row per CPU cluster in ascending order of capacity (the importer numbers cluster_id so:
-- by sysfs cpu_capacity, or by maximum frequency when capacities are missing), with its rank.
CREATE PERFETTO TABLE _android_cpu_clusters AS
SELECT
  cluster_id,
  ROW_NUMBER() OVER (ORDER BY cluster_id) - 1 AS rank,
  COUNT() OVER () AS cluster_count
FROM (SELECT DISTINCT cluster_id FROM cpu WHERE cluster_id IS NOT NULL);

-- The cluster type of each CPU: with two clusters "little" and "big", with three "little",
-- "medium" and "big", with four "little", two "medium" and "big". With one cluster (no
-- capacities or frequencies to tell CPUs apart) or more than four, NULL.
CREATE PERFETTO TABLE android_cpu_cluster_mapping(
  -- Alias of `cpu.ucpu`.
  ucpu LONG,
  -- Alias of `cpu.cpu`.
  cpu LONG,
  -- The cluster type of the CPU: 'little', 'medium', 'big' or NULL.
  cluster_type STRING
) AS
SELECT
  cpu.ucpu,
  cpu.cpu,
  CASE
    WHEN c.cluster_count NOT BETWEEN 2 AND 4 THEN NULL
    WHEN c.rank = 0 THEN 'little'
    WHEN c.rank = c.cluster_count - 1 THEN 'big'
    ELSE 'medium'
  END AS cluster_type
FROM cpu
LEFT JOIN _android_cpu_clusters AS c USING (cluster_id)
ORDER BY cpu.ucpu;

-- How many CPUs of a cluster type run a task (not the idle task) over time: one row per
-- change of that count.
CREATE PERFETTO FUNCTION _active_cpu_count_for_cluster_type(
  -- The cluster type, as android_cpu_cluster_mapping gives it ('little', 'medium', 'big').
  cluster_type STRING
)
RETURNS TABLE(
  -- When the number of active CPUs changed (trace clock, ns).
  ts TIMESTAMP,
  -- The number of active CPUs from ts to the next row's ts.
  active_cpu_count LONG
) AS
WITH
  busy AS (
    SELECT s.ts, s.dur
    FROM sched AS s
    JOIN android_cpu_cluster_mapping AS m ON m.ucpu = s.ucpu
    JOIN thread AS t USING (utid)
    WHERE m.cluster_type = $cluster_type AND NOT t.is_idle AND s.dur > 0
  ),
  changes AS (
    SELECT ts, 1 AS delta FROM busy
    UNION ALL
    SELECT ts + dur AS ts, -1 AS delta FROM busy
  ),
  per_ts AS (
    SELECT ts, SUM(delta) AS delta FROM changes GROUP BY ts
  )
SELECT ts, SUM(delta) OVER (ORDER BY ts ROWS UNBOUNDED PRECEDING) AS active_cpu_count
FROM per_ts
ORDER BY ts;
