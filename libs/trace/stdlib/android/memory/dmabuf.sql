-- DMA buffer (dmabuf) allocations and frees, from the dma_heap_stat ftrace event (each one a
-- "mem.dma_heap_change" counter value on the allocating thread, with the buffer's inode as an
-- arg). Buffers the graphics allocator (gralloc) makes on behalf of an app are charged to the
-- app's thread when the binder call that asked for them was traced.

-- Every heap change: the buffer's inode, the thread the kernel saw and the signed size.
CREATE PERFETTO TABLE _android_dmabuf_raw_changes AS
SELECT
  EXTRACT_ARG(c.arg_set_id, 'inode') AS inode,
  t.utid AS utid,
  c.ts AS ts,
  CAST(c.value AS INT) AS buf_size
FROM counter AS c
JOIN thread_counter_track AS t ON t.id = c.track_id
WHERE t.name = 'mem.dma_heap_change';

-- The binder replies gralloc's threads sent, with the client slice that asked for them (the
-- flow from the client's transaction into the reply).
CREATE PERFETTO TABLE _android_dmabuf_gralloc_replies AS
SELECT
  f.slice_out AS client_slice_id,
  reply.ts AS ts,
  reply.dur AS dur,
  tt.utid AS utid
FROM slice AS reply
JOIN thread_track AS tt ON tt.id = reply.track_id
JOIN thread USING (utid)
JOIN process USING (upid)
JOIN flow AS f ON f.slice_in = reply.id
WHERE reply.name = 'binder reply'
  AND (process.name GLOB '/vendor/bin/hw/android.hardware.graphics.allocator*'
    OR process.name GLOB '/vendor/bin/hw/*gralloc.allocator*');

-- Each heap change with the thread it is charged to: the client of the gralloc reply it
-- happened in, else the thread that made it.
CREATE PERFETTO TABLE _android_dmabuf_charged_changes AS
SELECT
  r.inode,
  r.ts,
  r.buf_size,
  COALESCE(client_track.utid, r.utid) AS charged_utid
FROM _android_dmabuf_raw_changes AS r
LEFT JOIN _android_dmabuf_gralloc_replies AS g
  ON g.utid = r.utid AND r.ts BETWEEN g.ts AND g.ts + g.dur
LEFT JOIN slice AS client ON client.id = g.client_slice_id
LEFT JOIN thread_track AS client_track ON client_track.id = client.track_id;

-- One row per dmabuf allocation (positive size) or free (negative size). A free is charged to
-- whoever the buffer's previous change was charged to, so an app's allocation and its release
-- land on the same thread even when another thread frees it.
CREATE PERFETTO TABLE android_dmabuf_allocs(
  -- When the buffer was allocated or freed (trace clock, ns).
  ts TIMESTAMP,
  -- The size in bytes: positive for an allocation, negative for a free.
  buf_size LONG,
  -- The buffer's inode, which identifies it for its lifetime.
  inode LONG,
  -- The thread charged with the buffer: for a gralloc allocation, the thread whose binder call
  -- asked for it (when binder was traced).
  utid JOINID(thread.id),
  -- That thread's tid.
  tid LONG,
  -- That thread's name.
  thread_name STRING,
  -- The charged thread's process, if known.
  upid JOINID(process.id),
  -- That process's pid.
  pid LONG,
  -- That process's name.
  process_name STRING
) AS
WITH
  charged AS (
    SELECT
      inode,
      ts,
      buf_size,
      IIF(
        buf_size > 0,
        charged_utid,
        -- A free: the charge of the latest earlier change of the buffer.
        LAST_VALUE(charged_utid) OVER (
          PARTITION BY inode ORDER BY ts
          RANGE BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        )
      ) AS utid
    FROM _android_dmabuf_charged_changes
  )
SELECT
  c.ts,
  c.buf_size,
  c.inode,
  c.utid,
  thread.tid,
  thread.name AS thread_name,
  thread.upid,
  process.pid,
  process.name AS process_name
FROM charged AS c
JOIN thread USING (utid)
LEFT JOIN process USING (upid)
ORDER BY c.ts;

-- The dmabuf memory each process (or, for a thread with no known process, each thread) holds
-- over time: after every allocation or free it is charged with, the running total in bytes.
CREATE PERFETTO TABLE android_memory_cumulative_dmabuf(
  -- The process charged, if known.
  upid JOINID(process.id),
  -- Its name.
  process_name STRING,
  -- The thread charged.
  utid JOINID(thread.id),
  -- Its name.
  thread_name STRING,
  -- When the total changed (trace clock, ns).
  ts TIMESTAMP,
  -- The bytes of dmabuf held from ts on.
  value LONG
) AS
SELECT
  upid,
  process_name,
  utid,
  thread_name,
  ts,
  SUM(buf_size) OVER (PARTITION BY COALESCE(upid, utid) ORDER BY ts) AS value
FROM android_dmabuf_allocs;
