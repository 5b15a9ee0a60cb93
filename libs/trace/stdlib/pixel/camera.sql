-- Pixel camera: the camera graph's per-node work on each frame (slices the camera HAL names
-- "cam<id>_<node>:<port group> (frame <n>)"), and the memory the camera stack holds over time.

INCLUDE PERFETTO MODULE counters.global_tracks;
INCLUDE PERFETTO MODULE linux.memory.process;
INCLUDE PERFETTO MODULE slices.with_context;

-- One row per camera graph node execution on a frame.
CREATE PERFETTO TABLE pixel_camera_frames(
  -- The execution's slice (slice.id).
  id ID(slice.id),
  -- When it started (trace clock, ns).
  ts TIMESTAMP,
  -- How long it ran, in ns.
  dur DURATION,
  -- The slice's track (track.id).
  track_id JOINID(track.id),
  -- The thread that ran it (thread.id).
  utid JOINID(thread.id),
  -- That thread's name.
  thread_name STRING,
  -- The graph node ("<node>" in the slice name).
  node STRING,
  -- The node's port group.
  port_group STRING,
  -- The frame number.
  frame_number LONG,
  -- The camera id.
  cam_id LONG
) AS
SELECT
  id,
  ts,
  dur,
  track_id,
  utid,
  thread_name,
  -- "cam<id>_<node>:<port group> (frame <n>)"
  SUBSTR(STR_SPLIT(name, ':', 0), INSTR(STR_SPLIT(name, ':', 0), '_') + 1) AS node,
  STR_SPLIT(STR_SPLIT(name, ':', 1), ' (', 0) AS port_group,
  cast_int!(STR_SPLIT(STR_SPLIT(name, '(frame', 1), ')', 0)) AS frame_number,
  cast_int!(STR_SPLIT(STR_SPLIT(name, 'cam', 1), '_', 0)) AS cam_id
FROM thread_slice
WHERE name GLOB 'cam*_*:* (frame *)' AND dur != -1;

-- RSS (anon + file + shmem) of the camera app (the GoogleCamera process with the largest RSS).
CREATE PERFETTO VIEW _pixel_camera_app_rss AS
SELECT m.ts, m.dur,
  IFNULL(m.file_rss, 0) + IFNULL(m.anon_rss, 0) + IFNULL(m.shmem_rss, 0) AS gca_rss_val
FROM memory_rss_and_swap_per_process AS m
WHERE m.upid = (
  SELECT r.upid
  FROM memory_rss_and_swap_per_process AS r
  JOIN process AS p USING (upid)
  WHERE p.name GLOB '*GoogleCamera' OR p.name GLOB '*googlecamera.fishfood'
    OR p.name GLOB '*GoogleCameraEng'
  GROUP BY r.upid
  ORDER BY MAX(IFNULL(r.file_rss, 0) + IFNULL(r.anon_rss, 0) + IFNULL(r.shmem_rss, 0)) DESC
  LIMIT 1
);

-- RSS of the camera HAL (the latest camera.provider process).
CREATE PERFETTO VIEW _pixel_camera_hal_rss AS
SELECT m.ts, m.dur,
  IFNULL(m.file_rss, 0) + IFNULL(m.anon_rss, 0) + IFNULL(m.shmem_rss, 0) AS hal_rss_val
FROM memory_rss_and_swap_per_process AS m
WHERE m.upid = (
  SELECT upid FROM process WHERE name GLOB '*camera.provider*'
  ORDER BY start_ts DESC LIMIT 1
);

-- RSS of cameraserver (the latest cameraserver process).
CREATE PERFETTO VIEW _pixel_cameraserver_rss AS
SELECT m.ts, m.dur,
  IFNULL(m.file_rss, 0) + IFNULL(m.anon_rss, 0) + IFNULL(m.shmem_rss, 0)
    AS cameraserver_rss_val
FROM memory_rss_and_swap_per_process AS m
WHERE m.upid = (
  SELECT upid FROM process WHERE name GLOB '*cameraserver'
  ORDER BY start_ts DESC LIMIT 1
);

-- The global DMA heap size ("mem.dma_heap") as intervals.
CREATE PERFETTO VIEW _pixel_camera_dma_heap AS
SELECT
  c.ts,
  LEAD(c.ts, 1, trace_end()) OVER (PARTITION BY c.track_id ORDER BY c.ts) - c.ts AS dur,
  c.value AS dma_val
FROM counter AS c
JOIN counter_track AS t ON t.id = c.track_id
WHERE t.name = 'mem.dma_heap' AND _counter_track_is_only_name_dimension(t.id);

CREATE VIRTUAL TABLE _pixel_camera_app_and_hal
USING SPAN_OUTER_JOIN(_pixel_camera_app_rss, _pixel_camera_hal_rss);

CREATE VIRTUAL TABLE _pixel_camera_processes
USING SPAN_OUTER_JOIN(_pixel_camera_app_and_hal, _pixel_cameraserver_rss);

CREATE VIRTUAL TABLE _pixel_camera_processes_and_dma
USING SPAN_OUTER_JOIN(_pixel_camera_dma_heap, _pixel_camera_processes);

-- The memory the camera stack holds over time: the camera app's, the HAL's and
-- cameraserver's RSS and the DMA heap, one row per stretch where none of them changes.
CREATE PERFETTO TABLE pixel_camera_memory_span(
  -- When the stretch began (trace clock, ns).
  ts TIMESTAMP,
  -- Its length, in ns.
  dur DURATION,
  -- The camera app's RSS, in bytes (0 when unknown).
  gca_rss LONG,
  -- The camera HAL's RSS (camera.provider), in bytes.
  hal_rss LONG,
  -- cameraserver's RSS, in bytes.
  cameraserver_rss LONG,
  -- The DMA heap's size, in bytes.
  dma LONG,
  -- All four together, in bytes.
  rss_and_dma LONG
) AS
SELECT
  ts,
  dur,
  cast_int!(IFNULL(gca_rss_val, 0)) AS gca_rss,
  cast_int!(IFNULL(hal_rss_val, 0)) AS hal_rss,
  cast_int!(IFNULL(cameraserver_rss_val, 0)) AS cameraserver_rss,
  cast_int!(IFNULL(dma_val, 0)) AS dma,
  cast_int!(IFNULL(gca_rss_val, 0) + IFNULL(hal_rss_val, 0) + IFNULL(cameraserver_rss_val, 0)
    + IFNULL(dma_val, 0)) AS rss_and_dma
FROM _pixel_camera_processes_and_dma;
