-- Each process's resident memory (anonymous, file-backed, shared) and swap over time, from the
-- mem.rss.anon, mem.rss.file, mem.rss.shmem and mem.swap counters (process_stats polling or
-- rss_stat events).

INCLUDE PERFETTO MODULE linux.memory.general;

-- Per process, one row per time any of the four counters changed, with every counter's latest
-- value (NULL before its first sample), until the next change.
CREATE PERFETTO TABLE _memory_rss_and_swap_per_process_table AS
WITH
  changes AS (
    SELECT
      upid,
      ts,
      MAX(IIF(name = 'mem.rss.anon', value, NULL)) AS anon,
      MAX(IIF(name = 'mem.rss.file', value, NULL)) AS file,
      MAX(IIF(name = 'mem.rss.shmem', value, NULL)) AS shmem,
      MAX(IIF(name = 'mem.swap', value, NULL)) AS swap,
      MAX(ts + dur) AS ends
    FROM _all_counters_per_process
    WHERE name IN ('mem.rss.anon', 'mem.rss.file', 'mem.rss.shmem', 'mem.swap')
    GROUP BY upid, ts
  ),
  -- A counter's latest value is the one of the last row that has it: number the runs.
  runs AS (
    SELECT
      *,
      COUNT(anon) OVER by_time AS anon_run,
      COUNT(file) OVER by_time AS file_run,
      COUNT(shmem) OVER by_time AS shmem_run,
      COUNT(swap) OVER by_time AS swap_run,
      MAX(ends) OVER (PARTITION BY upid) AS last_end
    FROM changes
    WINDOW by_time AS (PARTITION BY upid ORDER BY ts)
  )
SELECT
  ts,
  LEAD(ts, 1, last_end) OVER (PARTITION BY upid ORDER BY ts) - ts AS dur,
  upid,
  cast_int!(MAX(anon) OVER (PARTITION BY upid, anon_run)) AS anon_rss,
  cast_int!(MAX(file) OVER (PARTITION BY upid, file_run)) AS file_rss,
  cast_int!(MAX(shmem) OVER (PARTITION BY upid, shmem_run)) AS shmem_rss,
  cast_int!(MAX(swap) OVER (PARTITION BY upid, swap_run)) AS swap
FROM runs
ORDER BY upid, ts;

-- Each process's memory over time: one row per stretch in which none of its RSS or swap
-- counters changed.
CREATE PERFETTO VIEW memory_rss_and_swap_per_process(
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
  -- Anonymous resident memory (heap, stacks), in bytes.
  anon_rss LONG,
  -- File-backed resident memory (code, mapped files), in bytes.
  file_rss LONG,
  -- Shared-memory resident memory, in bytes.
  shmem_rss LONG,
  -- All resident memory: anon_rss + file_rss + shmem_rss (a missing shmem_rss counts as 0).
  rss LONG,
  -- Swapped-out memory, in bytes.
  swap LONG,
  -- anon_rss + swap (a missing swap counts as 0).
  anon_rss_and_swap LONG,
  -- rss + swap (missing shmem_rss and swap count as 0).
  rss_and_swap LONG
) AS
SELECT
  m.ts,
  m.dur,
  m.upid,
  p.pid,
  p.name AS process_name,
  m.anon_rss,
  m.file_rss,
  m.shmem_rss,
  m.file_rss + m.anon_rss + IFNULL(m.shmem_rss, 0) AS rss,
  m.swap,
  m.anon_rss + IFNULL(m.swap, 0) AS anon_rss_and_swap,
  m.anon_rss + m.file_rss + IFNULL(m.shmem_rss, 0) + IFNULL(m.swap, 0) AS rss_and_swap
FROM _memory_rss_and_swap_per_process_table AS m
JOIN process AS p USING (upid);
