-- Each process's peak resident memory so far, over time.

INCLUDE PERFETTO MODULE linux.memory.process;

-- Each process's highest RSS (anon + file + shmem) up to each point of the trace: one row per
-- stretch of constant high-water mark.
CREATE PERFETTO VIEW memory_rss_high_watermark_per_process(
  -- When the stretch began (trace clock, ns).
  ts TIMESTAMP,
  -- How long it lasted, in ns.
  dur DURATION,
  -- The process (process.id).
  upid JOINID(process.id),
  -- Its pid.
  pid LONG,
  -- Its name.
  process_name STRING,
  -- The largest RSS the process had reached by then, in bytes.
  rss_high_watermark LONG
) AS
WITH
  marks AS (
    SELECT
      ts,
      dur,
      upid,
      MAX(IFNULL(file_rss, 0) + IFNULL(anon_rss, 0) + IFNULL(shmem_rss, 0))
        OVER (PARTITION BY upid ORDER BY ts) AS mark
    FROM _memory_rss_and_swap_per_process_table
  ),
  starts AS (
    SELECT *, IIF(mark IS LAG(mark) OVER (PARTITION BY upid ORDER BY ts), 0, 1) AS is_start
    FROM marks
  ),
  runs AS (
    SELECT *, SUM(is_start) OVER (PARTITION BY upid ORDER BY ts) AS run FROM starts
  )
SELECT
  MIN(r.ts) AS ts,
  MAX(r.ts + r.dur) - MIN(r.ts) AS dur,
  r.upid,
  p.pid,
  p.name AS process_name,
  cast_int!(r.mark) AS rss_high_watermark
FROM runs AS r
JOIN process AS p USING (upid)
GROUP BY r.upid, r.run
ORDER BY r.upid, ts;
