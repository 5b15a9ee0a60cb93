-- heapprofd dumps as intervals: each (process, heap, dump) as the span of time its
-- allocations happened in, with how many bytes were allocated in it, how many of those were
-- still live at the dump, and the net change of the heap over it.

-- One row per (process, heap, dump). The interval ends at the dump (heap_profile.ts_end). It
-- starts at the dump's window start when the producer reported one; older producers did not,
-- so the interval starts just after the previous dump of the same heap (or at the trace start
-- for the first dump), never later than the dump itself: continuous dumps cover the timeline
-- without gaps.
CREATE PERFETTO TABLE _android_heap_profile_intervals(
  -- The smallest heap_profile_allocation id of the dump.
  id LONG,
  -- The profiled process.
  upid JOINID(process.id),
  -- The heap.
  heap_name STRING,
  -- Start of the interval.
  ts TIMESTAMP,
  -- Length of the interval (the dump is at ts + dur).
  dur DURATION,
  -- Bytes allocated in the interval and still live at the dump: the sum over callsites whose
  -- allocations outnumber their frees in the interval of their net bytes.
  retained LONG,
  -- Bytes allocated in the interval.
  allocated LONG,
  -- Net change of the heap over the interval: allocations minus every free in it, frees of
  -- older allocations included.
  delta LONG
) AS
WITH
  -- Each callsite's rows of a dump (at most an allocation row and a free row) together.
  callsite_totals AS (
    SELECT
      upid,
      heap_name,
      ts,
      min(id) AS first_id,
      sum(count) AS net_count,
      sum(size) AS net_size,
      sum(CASE WHEN size > 0 THEN size ELSE 0 END) AS allocated_size
    FROM heap_profile_allocation
    GROUP BY upid, heap_name, ts, callsite_id
  ),
  dump_totals AS (
    SELECT
      min(c.first_id) AS id,
      c.upid,
      c.heap_name,
      c.ts AS ts_end,
      -- The producer's window start (equal to the dump's ts when it reported none).
      min(hp.ts) AS window_start,
      sum(CASE WHEN c.net_count > 0 THEN c.net_size ELSE 0 END) AS retained,
      sum(c.allocated_size) AS allocated,
      sum(c.net_size) AS delta
    FROM callsite_totals AS c
    JOIN heap_profile AS hp
      ON hp.upid = c.upid
      AND hp.ts_end = c.ts
      AND coalesce(hp.heap_name, 'unknown') = c.heap_name
    GROUP BY c.upid, c.heap_name, c.ts
  ),
  placed AS (
    SELECT
      id,
      upid,
      heap_name,
      ts_end,
      retained,
      allocated,
      delta,
      CASE
        WHEN window_start < ts_end THEN window_start
        ELSE min(
          1 + lag(ts_end, 1, trace_start()) OVER (
            PARTITION BY upid, heap_name ORDER BY ts_end
          ),
          ts_end
        )
      END AS ts
    FROM dump_totals
  )
SELECT id, upid, heap_name, ts, ts_end - ts AS dur, retained, allocated, delta
FROM placed;
