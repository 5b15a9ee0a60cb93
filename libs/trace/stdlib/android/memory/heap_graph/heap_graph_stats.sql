-- One summary row per Java heap dump: the heap's size and objects (all and reachable), the
-- process's state around the dump (oom score, anon RSS + swap, dmabuf RSS: the value holding
-- at the dump, else the next one within 500 ms) and what ART said (bytes allocated, whether an
-- OutOfMemoryError triggered it and its details).

INCLUDE PERFETTO MODULE linux.memory.process;
INCLUDE PERFETTO MODULE android.oom_adjuster;
INCLUDE PERFETTO MODULE android.memory.dmabuf_spans;
INCLUDE PERFETTO MODULE android.memory.heap_graph.oome;

-- The `value` of the interval of `t` for process `upid` that holds at `ts`, else of the
-- nearest one starting within 500 ms after it.
CREATE PERFETTO MACRO _closest_value(
  -- The process.
  upid Expr,
  -- The moment.
  ts Expr,
  -- Intervals with upid, ts and dur.
  t TableOrSubquery,
  -- The column to return.
  value ColumnName
)
-- The value.
RETURNS Expr AS (
  SELECT result
  FROM (
    SELECT $t.ts AS vts, $t.ts + $t.dur AS vts_end, $value AS result,
      abs($t.ts - $ts) AS distance
    FROM $t
    WHERE $t.upid = $upid
  )
  WHERE $ts BETWEEN vts AND vts_end OR (vts > $ts AND distance <= 500 * 1e6)
  ORDER BY distance
  LIMIT 1
);

-- One row per heap dump.
CREATE PERFETTO TABLE android_heap_graph_stats(
  -- The dumped process.
  upid JOINID(process.id),
  -- When the heap was dumped.
  graph_sample_ts TIMESTAMP,
  -- How long the process had been running at the dump.
  process_uptime LONG,
  -- Bytes of all objects (reachable or not) on the Java heap.
  total_heap_size LONG,
  -- Native bytes registered with NativeAllocationRegistry (not part of total_heap_size).
  total_native_alloc_registry_size LONG,
  -- Objects on the heap.
  total_obj_count LONG,
  -- Bytes of reachable objects.
  reachable_heap_size LONG,
  -- Native bytes of reachable objects.
  reachable_native_alloc_registry_size LONG,
  -- Reachable objects.
  reachable_obj_count LONG,
  -- The process's oom score adj at the dump.
  oom_score_adj LONG,
  -- Its anon RSS + swap (bytes) at the dump.
  anon_rss_and_swap_size LONG,
  -- Its dmabuf RSS (bytes) at the dump.
  dmabuf_rss_size LONG,
  -- ART's count of bytes allocated on the heap.
  art_bytes_allocated LONG,
  -- Whether an OutOfMemoryError triggered the dump.
  is_out_of_memory_error BOOL,
  -- For an OutOfMemoryError: the size of the allocation that failed.
  oome_failing_allocation_size LONG,
  -- For an OutOfMemoryError: the free bytes left before the heap's maximum.
  oome_remaining_art_free_bytes LONG
) AS
WITH
  per_dump AS (
    SELECT
      upid, graph_sample_ts,
      sum(self_size) AS total_heap_size,
      sum(native_size) AS total_native_alloc_registry_size,
      count(1) AS total_obj_count,
      sum(iif(reachable, self_size, 0)) AS reachable_heap_size,
      sum(iif(reachable, native_size, 0)) AS reachable_native_alloc_registry_size,
      sum(iif(reachable, 1, 0)) AS reachable_obj_count
    FROM heap_graph_object
    GROUP BY 1, 2
  )
SELECT
  d.upid,
  d.graph_sample_ts,
  d.graph_sample_ts - p.start_ts AS process_uptime,
  d.total_heap_size,
  d.total_native_alloc_registry_size,
  d.total_obj_count,
  d.reachable_heap_size,
  d.reachable_native_alloc_registry_size,
  d.reachable_obj_count,
  _closest_value!(d.upid, d.graph_sample_ts, android_oom_adj_intervals, score) AS oom_score_adj,
  _closest_value!(d.upid, d.graph_sample_ts, memory_rss_and_swap_per_process, anon_rss_and_swap)
    AS anon_rss_and_swap_size,
  _closest_value!(d.upid, d.graph_sample_ts, _dmabuf_spans, dmabuf_rss) AS dmabuf_rss_size,
  g.heap_size AS art_bytes_allocated,
  (g.dump_reason = 'OOME'
    OR (SELECT str_value FROM metadata WHERE name = 'trace_trigger')
      = 'com.android.telemetry.art-outofmemory') AS is_out_of_memory_error,
  o.allocation_size_bytes AS oome_failing_allocation_size,
  o.free_bytes_until_oom AS oome_remaining_art_free_bytes
FROM per_dump d
JOIN process p USING (upid)
LEFT JOIN heap_graph g ON d.upid = g.upid AND d.graph_sample_ts = g.ts
LEFT JOIN android_heap_graph_java_oome_details o ON g.id = o.heap_graph_id;
