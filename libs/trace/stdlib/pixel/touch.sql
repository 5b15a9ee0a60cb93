-- Pixel touch: one touch report followed from the touch controller's interrupt (top half),
-- through the driver's IRQ thread (bottom half, which stamps the report's input time), to
-- Twoshay's processing of the frame ("algo->processFrame: IN_TS=<ts>").

INCLUDE PERFETTO MODULE intervals.intersect;

-- Twoshay's frame processing slices, with the report's input time and the resample latency
-- offset Twoshay logged while processing it (0 when none).
CREATE PERFETTO TABLE _pixel_touch_twoshay_frames AS
WITH
  frames AS (
    SELECT
      id AS twoshay_slice_id,
      ts AS twoshay_ts,
      dur AS twoshay_dur,
      cast_int!(STR_SPLIT(STR_SPLIT(name, 'IN_TS=', 1), '.', 0)) AS in_ts
    FROM slice
    WHERE name GLOB 'algo->processFrame:*'
  )
SELECT
  f.*,
  cast_int!(IFNULL((
    SELECT c.value
    FROM counter AS c
    WHERE c.track_id = (SELECT id FROM track WHERE name = 'Resample latency offset' LIMIT 1)
      AND c.ts BETWEEN f.twoshay_ts AND f.twoshay_ts + f.twoshay_dur
    ORDER BY c.ts
    LIMIT 1
  ), 0)) AS resample_latency_offset
FROM frames AS f;

-- The driver's IRQ thread runs ("gti_irq_thread_fn: IRQ_IDX=<n>"), with the input time of the
-- report they populated (their "goog_offload_populate_frame: IN_TS=<ts>" child).
CREATE PERFETTO TABLE _pixel_touch_bottom_halves AS
SELECT
  b.id AS bh_slice_id,
  b.ts AS bh_start_ts,
  b.dur AS bh_dur,
  b.track_id,
  cast_int!(STR_SPLIT(STR_SPLIT(b.name, 'IRQ_IDX=', 1), '.', 0)) AS irq_idx,
  (
    SELECT cast_int!(STR_SPLIT(STR_SPLIT(c.name, 'IN_TS=', 1), '.', 0))
    FROM slice AS c
    WHERE c.parent_id = b.id AND c.name GLOB 'goog_offload_populate_frame:*'
    ORDER BY c.ts
    LIMIT 1
  ) AS in_ts
FROM slice AS b
WHERE b.name GLOB 'gti_irq_thread_fn: IRQ_IDX=*';

-- Hard IRQ handler runs during which the driver stamped its IRQ index ("gti_th_irq_index").
CREATE PERFETTO TABLE _pixel_touch_top_halves AS
WITH
  irq_index AS (
    SELECT id, ts, 0 AS dur, value
    FROM counter
    WHERE track_id = (SELECT id FROM track WHERE name = 'gti_th_irq_index' LIMIT 1)
  ),
  irqs AS (
    SELECT id, ts, dur, track_id FROM slice WHERE name GLOB 'IRQ (*)' AND dur > 0
  )
SELECT
  s.id AS th_slice_id,
  s.ts AS th_start_ts,
  s.dur AS th_dur,
  s.track_id AS th_track_id,
  c.value AS irq_idx
FROM _interval_intersect!((irqs, irq_index), ()) AS ii
JOIN irqs AS s ON s.id = ii.id_0
JOIN irq_index AS c ON c.id = ii.id_1;

-- One row per touch report Twoshay processed, with the interrupt work that delivered it when
-- the trace has it.
CREATE PERFETTO TABLE pixel_touch_events(
  -- The report's input time, as the driver stamped it.
  in_ts LONG,
  -- When the top-half IRQ handler started (trace clock, ns).
  ts_pixel_touch_th TIMESTAMP,
  -- How long it ran, in ns.
  dur_pixel_touch_th DURATION,
  -- Its slice (slice.id).
  id_pixel_touch_th LONG,
  -- Its track (track.id).
  track_pixel_touch_th JOINID(track.id),
  -- When the bottom-half IRQ thread run started (trace clock, ns).
  ts_pixel_touch_bh TIMESTAMP,
  -- How long it ran, in ns.
  dur_pixel_touch_bh DURATION,
  -- Its slice (slice.id).
  id_pixel_touch_bh LONG,
  -- Its track (track.id).
  track_pixel_touch_bh JOINID(track.id),
  -- When Twoshay started processing the frame (trace clock, ns).
  ts_pixel_touch TIMESTAMP,
  -- How long it took, in ns.
  dur_pixel_touch DURATION,
  -- Its slice (slice.id).
  id_pixel_touch LONG,
  -- Its track (track.id).
  track_pixel_touch JOINID(track.id),
  -- The resample latency offset Twoshay logged for the frame, in ns (0 when none).
  resample_latency_offset LONG
) AS
SELECT
  t.in_ts,
  th.th_start_ts AS ts_pixel_touch_th,
  th.th_dur AS dur_pixel_touch_th,
  th.th_slice_id AS id_pixel_touch_th,
  th.th_track_id AS track_pixel_touch_th,
  bh.bh_start_ts AS ts_pixel_touch_bh,
  bh.bh_dur AS dur_pixel_touch_bh,
  bh.bh_slice_id AS id_pixel_touch_bh,
  bh.track_id AS track_pixel_touch_bh,
  t.twoshay_ts AS ts_pixel_touch,
  t.twoshay_dur AS dur_pixel_touch,
  t.twoshay_slice_id AS id_pixel_touch,
  s.track_id AS track_pixel_touch,
  t.resample_latency_offset
FROM _pixel_touch_twoshay_frames AS t
LEFT JOIN _pixel_touch_bottom_halves AS bh ON bh.in_ts = t.in_ts
LEFT JOIN _pixel_touch_top_halves AS th ON th.irq_idx = bh.irq_idx
LEFT JOIN slice AS s ON s.id = t.twoshay_slice_id;
