-- ART garbage collections (android_garbage_collection_events) with
-- heap reclaimed and where the GC thread's time went, plus per-process and device GC stats.

INCLUDE PERFETTO MODULE android.startup.startups;
INCLUDE PERFETTO MODULE slices.with_context;

-- Top-level "... concurrent ... GC" slices of ART's GC threads. A CompactionPhase (or a
-- background copying GC) right after it on the same thread, sometimes outside the nesting,
-- belongs to the same GC and extends it. A GC still running at the trace end lasts until then.
-- "Right after" is the next top-level slice of the track, so only the tracks that hold a GC
-- need ordering: windowing every top-level thread slice cost ~170 ms on a 1 M-event trace.
CREATE PERFETTO VIEW _gc_slice AS
WITH
  gc_tracks AS (
    SELECT DISTINCT track_id FROM slice WHERE depth = 0 AND name GLOB '*concurrent*GC'
  ),
  top_level AS (
    SELECT
      id, name, ts, IIF(dur = -1, trace_end() - ts, dur) AS dur,
      LEAD(name) OVER (PARTITION BY track_id ORDER BY ts) AS next_name,
      LEAD(dur) OVER (PARTITION BY track_id ORDER BY ts) AS next_dur,
      utid, tid, upid, pid, thread_name, process_name
    FROM thread_slice
    WHERE depth = 0 AND track_id IN gc_tracks
  )
SELECT
  id AS gc_id,
  name AS gc_name,
  ts AS gc_ts,
  ts,
  dur + IIF(next_name IN ('CompactionPhase', 'Background concurrent copying GC'), next_dur, 0)
    AS gc_dur,
  dur + IIF(next_name IN ('CompactionPhase', 'Background concurrent copying GC'), next_dur, 0)
    AS dur,
  utid, tid, upid, pid, thread_name, process_name
FROM top_level
WHERE name GLOB '*concurrent*GC';

-- ART's "Heap size (KB)" process counter as intervals. A table with an index, not a view:
-- every GC looks up the sample after it, and a view would redo the window per GC.
CREATE PERFETTO TABLE _gc_heap_counter AS
SELECT
  c.ts,
  COALESCE(LEAD(c.ts) OVER (PARTITION BY c.track_id ORDER BY c.ts), trace_end()) - c.ts AS dur,
  t.upid,
  cast_int!(c.value) AS value
FROM counter AS c
JOIN process_counter_track AS t ON c.track_id = t.id
WHERE t.name = 'Heap size (KB)';

CREATE PERFETTO INDEX _gc_heap_counter_by_process ON _gc_heap_counter(upid, ts);

-- Each GC with the first heap size sample at or after its end (the heap it left).
CREATE PERFETTO TABLE _gc_slice_with_final_heap AS
SELECT
  g.*,
  (SELECT h.value FROM _gc_heap_counter AS h
   WHERE h.upid = g.upid AND h.ts >= g.gc_ts + g.gc_dur
   ORDER BY h.ts LIMIT 1) AS last_value
FROM _gc_slice AS g;

-- GCs during which the process had heap samples: the smallest and largest heap seen (samples
-- overlapping the GC, and the heap after it), and the GC's kind from its name.
CREATE PERFETTO TABLE _gc_slice_heap AS
SELECT
  g.gc_ts AS ts, g.gc_dur AS dur, g.upid, g.gc_id, g.gc_name, g.gc_ts, g.gc_dur, g.utid,
  g.tid, g.pid, g.thread_name, g.process_name, g.last_value,
  CASE
    WHEN g.gc_name GLOB '*NativeAlloc*' THEN 'native_alloc'
    WHEN g.gc_name GLOB '*Alloc*' THEN 'alloc'
    WHEN g.gc_name GLOB '*young*' THEN 'young'
    WHEN g.gc_name GLOB '*CollectorTransition*' THEN 'collector_transition'
    WHEN g.gc_name GLOB '*Explicit*' THEN 'explicit'
    ELSE 'full'
  END AS gc_type,
  IIF(g.gc_name GLOB '*mark compact*', 1, 0) AS is_mark_compact,
  MAX(MAX(h.value, COALESCE(g.last_value, h.value))) / 1e3 AS max_heap_mb,
  MIN(MIN(h.value, COALESCE(g.last_value, h.value))) / 1e3 AS min_heap_mb
FROM _gc_slice_with_final_heap AS g
JOIN _gc_heap_counter AS h
  ON h.upid = g.upid AND h.ts < g.gc_ts + g.gc_dur AND h.ts + h.dur > g.gc_ts
GROUP BY g.gc_id;

-- Every GC with heap data: its kind, the heap it reclaimed, and how long its thread spent
-- running, runnable, in uninterruptible sleep (with and without I/O) and sleeping.
CREATE PERFETTO TABLE android_garbage_collection_events(
  -- The GC thread's tid.
  tid LONG,
  -- The process's pid.
  pid LONG,
  -- The GC thread (thread.id).
  utid JOINID(thread.id),
  -- The process (process.id).
  upid JOINID(process.id),
  -- The GC thread's name (HeapTaskDaemon, ...).
  thread_name STRING,
  -- The process's name.
  process_name STRING,
  -- The kind of collection: young, full, collector_transition, ...
  gc_type STRING,
  -- 1 for a mark-compact collection, 0 for a copying one.
  is_mark_compact LONG,
  -- Memory freed, in MB.
  reclaimed_mb DOUBLE,
  -- The smallest heap size seen during the collection, in MB.
  min_heap_mb DOUBLE,
  -- The largest heap size seen during the collection, in MB.
  max_heap_mb DOUBLE,
  -- The collection's id (its slice's id).
  gc_id LONG,
  -- When the collection began (trace clock, ns).
  gc_ts TIMESTAMP,
  -- How long it lasted, in ns.
  gc_dur DURATION,
  -- Of gc_dur, time the GC thread was running, in ns.
  gc_running_dur DURATION,
  -- Of gc_dur, time it waited for a CPU, in ns.
  gc_runnable_dur DURATION,
  -- Of gc_dur, time in uninterruptible sleep on I/O, in ns.
  gc_unint_io_dur DURATION,
  -- Of gc_dur, time in uninterruptible sleep not on I/O, in ns.
  gc_unint_non_io_dur DURATION,
  -- Of gc_dur, time in interruptible sleep, in ns.
  gc_int_dur LONG
) AS
WITH states AS (
  SELECT
    g.gc_id, s.state, s.io_wait,
    MIN(s.ts + s.dur, g.gc_ts + g.gc_dur) - MAX(s.ts, g.gc_ts) AS dur
  FROM _gc_slice_heap AS g
  JOIN thread_state AS s
    ON s.utid = g.utid AND s.ts < g.gc_ts + g.gc_dur AND s.ts + s.dur > g.gc_ts
)
SELECT
  g.tid, g.pid, g.utid, g.upid, g.thread_name, g.process_name, g.gc_type, g.is_mark_compact,
  g.max_heap_mb - g.min_heap_mb AS reclaimed_mb,
  g.min_heap_mb, g.max_heap_mb, g.gc_id, g.gc_ts, g.gc_dur,
  COALESCE(SUM(IIF(st.state = 'Running', st.dur, 0)), 0) AS gc_running_dur,
  COALESCE(SUM(IIF(st.state IN ('R', 'R+'), st.dur, 0)), 0) AS gc_runnable_dur,
  COALESCE(SUM(IIF(st.state = 'D' AND st.io_wait = 1, st.dur, 0)), 0) AS gc_unint_io_dur,
  COALESCE(SUM(IIF(st.state = 'D' AND st.io_wait != 1, st.dur, 0)), 0) AS gc_unint_non_io_dur,
  COALESCE(SUM(IIF(st.state = 'S', st.dur, 0)), 0) AS gc_int_dur
FROM _gc_slice_heap AS g
LEFT JOIN states AS st USING (gc_id)
GROUP BY g.gc_id
ORDER BY g.gc_ts;

-- The window GC stats cover: where heap size samples exist (the trace often spans more).
CREATE PERFETTO TABLE _gc_stats_window AS
SELECT
  MIN(c.ts) AS gc_stats_window_start,
  MAX(c.ts) AS gc_stats_window_end,
  MAX(c.ts) - MIN(c.ts) AS gc_stats_window_dur
FROM counter AS c
JOIN process_counter_track AS t ON c.track_id = t.id
WHERE t.name = 'Heap size (KB)';

-- Heap samples with the time since the previous one and the growth since it (allocations).
CREATE PERFETTO TABLE _gc_heap_allocated AS
SELECT
  t.upid,
  c.ts,
  c.ts - LAG(c.ts) OVER (PARTITION BY t.upid ORDER BY c.ts) AS dur,
  c.value,
  MAX(c.value - COALESCE(LAG(c.value) OVER (PARTITION BY t.upid ORDER BY c.ts), c.value), 0)
    AS allocated
FROM counter AS c
JOIN process_counter_track AS t ON c.track_id = t.id
WHERE t.name = 'Heap size (KB)';

-- The parts of GCs that ran during an app launch (launches of zero length are ignored).
CREATE PERFETTO TABLE _gc_during_android_startup AS
SELECT
  MAX(s.ts, g.gc_ts) AS ts,
  MIN(s.ts + s.dur, g.gc_ts + g.gc_dur) - MAX(s.ts, g.gc_ts) AS dur,
  s.startup_id,
  g.gc_id
FROM android_startups AS s
JOIN android_garbage_collection_events AS g
  ON s.dur > 0 AND g.gc_ts < s.ts + s.dur AND g.gc_ts + g.gc_dur > s.ts;

-- Live and total heap over time per process, weighting each GC's heap sizes by the time since
-- the previous GC (or since the process / stats window started, for the first).
CREATE PERFETTO TABLE _gc_heap_utilization AS
WITH
  before_first AS (
    SELECT
      p.upid,
      IIF(p.start_ts IS NULL, w.gc_stats_window_start, MAX(p.start_ts, w.gc_stats_window_start))
        AS gc_ts,
      0 AS gc_dur, 0 AS min_heap_mb, 0 AS max_heap_mb
    FROM process AS p, _gc_stats_window AS w
  ),
  combined AS (
    SELECT upid, gc_ts, gc_dur, min_heap_mb, max_heap_mb FROM android_garbage_collection_events
    UNION
    SELECT * FROM before_first
  ),
  periods AS (
    SELECT
      upid,
      gc_ts + gc_dur - LAG(gc_ts + gc_dur) OVER (PARTITION BY upid ORDER BY gc_ts) AS gc_period,
      min_heap_mb, max_heap_mb
    FROM combined
  )
SELECT
  upid,
  SUM(gc_period * min_heap_mb) / 1e9 AS heap_live_mbs,
  SUM(gc_period * max_heap_mb) / 1e9 AS heap_total_mbs
FROM periods
WHERE min_heap_mb IS NOT NULL
GROUP BY upid;

-- GC cost and heap behaviour per process over the stats window.
CREATE PERFETTO TABLE _android_garbage_collection_process_stats(
  upid JOINID(process.id), ts TIMESTAMP, dur DURATION, heap_size_mbs DOUBLE,
  heap_size_mb DOUBLE, heap_allocated_mb DOUBLE, heap_allocation_rate DOUBLE,
  heap_live_mbs DOUBLE, heap_total_mbs DOUBLE, heap_utilization DOUBLE,
  gc_running_dur DURATION, gc_running_rate DOUBLE, gc_running_efficiency DOUBLE,
  gc_during_android_startup_dur DURATION, total_android_startup_dur DURATION,
  gc_during_android_startup_rate DOUBLE, gc_during_android_startup_efficiency DOUBLE
) AS
WITH
  running AS (
    SELECT upid, SUM(gc_running_dur) AS gc_running_dur
    FROM android_garbage_collection_events GROUP BY upid
  ),
  heap AS (
    SELECT upid, SUM(allocated) / 1e3 AS heap_allocated_mb,
           SUM(value * dur) / (1e3 * 1e9) AS heap_size_mbs
    FROM _gc_heap_allocated GROUP BY upid
  ),
  during_startup AS (
    SELECT g.upid, SUM(d.dur) AS gc_during_android_startup_dur
    FROM _gc_during_android_startup AS d
    JOIN android_garbage_collection_events AS g USING (gc_id)
    GROUP BY g.upid
  ),
  startups AS (SELECT SUM(dur) AS total_android_startup_dur FROM android_startups),
  joined AS (
    SELECT *
    FROM heap
    LEFT JOIN running USING (upid)
    LEFT JOIN during_startup USING (upid)
    LEFT JOIN _gc_heap_utilization USING (upid), _gc_stats_window, startups
  ),
  rates AS (
    SELECT
      *,
      gc_running_dur * 1.0 / gc_stats_window_dur AS gc_running_rate,
      gc_during_android_startup_dur * 1.0 / total_android_startup_dur
        AS gc_during_android_startup_rate,
      heap_allocated_mb * 1e9 / gc_stats_window_dur AS heap_allocation_rate,
      heap_size_mbs * 1e9 / gc_stats_window_dur AS heap_size_mb,
      heap_live_mbs / heap_total_mbs AS heap_utilization
    FROM joined
  )
SELECT
  upid, gc_stats_window_start AS ts, gc_stats_window_dur AS dur, heap_size_mbs, heap_size_mb,
  heap_allocated_mb, heap_allocation_rate, heap_live_mbs, heap_total_mbs, heap_utilization,
  gc_running_dur, gc_running_rate,
  heap_allocation_rate * heap_utilization / (gc_running_rate * (1 - heap_utilization))
    AS gc_running_efficiency,
  gc_during_android_startup_dur, total_android_startup_dur, gc_during_android_startup_rate,
  heap_allocation_rate * heap_utilization
    / (gc_during_android_startup_rate * (1 - heap_utilization))
    AS gc_during_android_startup_efficiency
FROM rates;

-- The same over the whole device: one row.
CREATE PERFETTO TABLE _android_garbage_collection_stats(
  ts TIMESTAMP, dur DURATION, heap_size_mbs DOUBLE, heap_size_mb DOUBLE,
  heap_allocated_mb DOUBLE, heap_allocation_rate DOUBLE, heap_live_mbs DOUBLE,
  heap_total_mbs DOUBLE, heap_utilization DOUBLE, gc_running_dur DURATION,
  gc_running_rate DOUBLE, gc_running_efficiency DOUBLE,
  gc_during_android_startup_dur DURATION, total_android_startup_dur DURATION,
  gc_during_android_startup_rate DOUBLE, gc_during_android_startup_efficiency DOUBLE
) AS
WITH base AS (
  SELECT
    MIN(ts) AS ts,
    MIN(dur) AS dur,
    SUM(heap_size_mbs) AS heap_size_mbs,
    SUM(heap_size_mb) AS heap_size_mb,
    SUM(heap_allocated_mb) AS heap_allocated_mb,
    SUM(heap_allocation_rate) AS heap_allocation_rate,
    SUM(heap_live_mbs) AS heap_live_mbs,
    SUM(heap_total_mbs) AS heap_total_mbs,
    SUM(heap_live_mbs) / SUM(heap_total_mbs) AS heap_utilization,
    SUM(gc_running_dur) AS gc_running_dur,
    SUM(gc_running_rate) AS gc_running_rate,
    SUM(gc_during_android_startup_dur) AS gc_during_android_startup_dur,
    (SELECT SUM(dur) FROM android_startups) AS total_android_startup_dur,
    SUM(gc_during_android_startup_rate) AS gc_during_android_startup_rate
  FROM _android_garbage_collection_process_stats
)
SELECT
  ts, dur, heap_size_mbs, heap_size_mb, heap_allocated_mb, heap_allocation_rate,
  heap_live_mbs, heap_total_mbs, heap_utilization, gc_running_dur, gc_running_rate,
  heap_allocation_rate * heap_utilization / (gc_running_rate * (1 - heap_utilization))
    AS gc_running_efficiency,
  gc_during_android_startup_dur, total_android_startup_dur, gc_during_android_startup_rate,
  heap_allocation_rate * heap_utilization
    / (gc_during_android_startup_rate * (1 - heap_utilization))
    AS gc_during_android_startup_efficiency
FROM base;
