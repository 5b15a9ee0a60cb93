-- One row per app frame (android_frames), joining the UI thread's
-- Choreographer#doFrame, the render thread's DrawFrame and SurfaceFlinger's frame timeline.

INCLUDE PERFETTO MODULE slices.with_context;
INCLUDE PERFETTO MODULE android.frames.timeline_maxsdk28;

-- Thread slices whose name matches $glob_str and carries a vsync id as its second word
-- ("Choreographer#doFrame 1234", "DrawFrame 1234"). Names whose id does not parse (0) or is
-- the invalid vsync id (-1), e.g. "Choreographer#doFrame - resynced to ...", are left out.
CREATE PERFETTO FUNCTION _get_frame_table_with_id(glob_str STRING)
RETURNS TABLE(
  id ID(slice.id), frame_id LONG, utid JOINID(thread.id), upid JOINID(process.id), ts TIMESTAMP
) AS
SELECT id, frame_id, utid, upid, ts
FROM (
  SELECT id, cast_int!(str_split(name, ' ', 1)) AS frame_id, utid, upid, ts
  FROM thread_slice
  WHERE name GLOB $glob_str
)
WHERE frame_id NOT IN (0, -1);

-- Every Choreographer#doFrame slice (on the app's UI thread) with its vsync id.
CREATE PERFETTO TABLE android_frames_choreographer_do_frame(
  -- The Choreographer#doFrame slice (slice.id).
  id ID(slice.id),
  -- The vsync id in its name.
  frame_id LONG,
  -- The app's UI (main) thread (thread.id).
  ui_thread_utid JOINID(thread.id),
  -- The app's process (process.id).
  upid JOINID(process.id),
  -- When the doFrame began (trace clock, ns).
  ts TIMESTAMP
) AS
SELECT id, frame_id, utid AS ui_thread_utid, upid, ts
FROM _get_frame_table_with_id('Choreographer#doFrame*');

-- Every DrawFrame slice (on the render thread) with its vsync id. One vsync can have several
-- when several layers are drawn.
CREATE PERFETTO TABLE android_frames_draw_frame(
  -- The DrawFrame slice (slice.id).
  id ID(slice.id),
  -- The vsync id in its name.
  frame_id LONG,
  -- The app's RenderThread (thread.id).
  render_thread_utid JOINID(thread.id),
  -- The app's process (process.id).
  upid JOINID(process.id)
) AS
SELECT id, frame_id, utid AS render_thread_utid, upid
FROM _get_frame_table_with_id('DrawFrame*');

-- Actual timeline slices per layer: the slice name is the surface frame token (= vsync id);
-- the layer id is what follows '#' in the layer name.
CREATE PERFETTO TABLE _distinct_layer_actual_timeline_slice_per_process AS
SELECT
  cast_int!(name) AS frame_id,
  CAST(str_split(layer_name, '#', 1) AS INTEGER) AS layer_id,
  layer_name,
  id AS slice_id,
  ts,
  dur,
  upid
FROM actual_frame_timeline_slice;

-- Expected timeline slices per process, by token.
CREATE PERFETTO TABLE _distinct_from_expected_timeline_slice_per_process AS
SELECT cast_int!(name) AS frame_id, upid, id FROM expected_frame_timeline_slice;

-- Vsyncs whose SurfaceFlinger or HWUI callback was missed ("FT#Missed...Callback#<vsync>").
CREATE PERFETTO TABLE _vsync_missed_callback AS
SELECT
  CAST(str_split(name, 'Callback#', 1) AS INTEGER) AS vsync,
  MAX(name GLOB '*SF*') AS sf_callback_missed,
  MAX(name GLOB '*HWUI*') AS hwui_callback_missed
FROM slice
WHERE name GLOB '*FT#Missed*Callback*'
GROUP BY vsync;

-- One row per (frame, layer): a doFrame and its DrawFrame(s) of the same vsync id and process,
-- with the actual/expected timeline slices of that token. ts/dur are the actual timeline's
-- when SurfaceFlinger reported the frame, else from the doFrame start to the end of the
-- DrawFrame. Traces without any frame timeline (Android 9 and older) use the maxsdk28 pairing.
CREATE PERFETTO TABLE android_frames_layers(
  -- The frame's vsync id (the surface frame token).
  frame_id LONG,
  -- When the frame began: the actual timeline slice's start when SurfaceFlinger reported it, else
  -- the doFrame's.
  ts TIMESTAMP,
  -- How long the frame took, in ns: the actual timeline slice's duration, else from doFrame to
  -- the end of the last DrawFrame.
  dur DURATION,
  -- When the frame ended: ts + dur.
  ts_end TIMESTAMP,
  -- The Choreographer#doFrame slice (slice.id).
  do_frame_id JOINID(slice.id),
  -- The DrawFrame slice (slice.id).
  draw_frame_id JOINID(slice.id),
  -- The actual frame timeline slice (actual_frame_timeline_slice.id), if any.
  actual_frame_timeline_id JOINID(slice.id),
  -- The expected frame timeline slice (expected_frame_timeline_slice.id), if any.
  expected_frame_timeline_id JOINID(slice.id),
  -- The app's RenderThread (thread.id).
  render_thread_utid JOINID(thread.id),
  -- The app's UI (main) thread (thread.id).
  ui_thread_utid JOINID(thread.id),
  -- The layer's id (what follows # in its name).
  layer_id LONG,
  -- The layer the frame was drawn for.
  layer_name STRING,
  -- The app's process (process.id).
  upid JOINID(process.id),
  -- The app's process name.
  process_name STRING
) AS
WITH
  has_timeline AS (SELECT EXISTS (SELECT 1 FROM actual_frame_timeline_slice) AS yes),
  app_frames AS MATERIALIZED (
    SELECT
      df.frame_id,
      df.upid,
      df.id AS do_frame_id,
      df.ui_thread_utid,
      dr.id AS draw_frame_id,
      dr.render_thread_utid,
      ds.ts AS fallback_ts,
      rs.ts + rs.dur - ds.ts AS fallback_dur
    FROM android_frames_choreographer_do_frame AS df
    JOIN android_frames_draw_frame AS dr USING (frame_id, upid)
    JOIN slice AS ds ON ds.id = df.id
    JOIN slice AS rs ON rs.id = dr.id
  ),
  with_timeline AS (
    SELECT
      f.frame_id,
      COALESCE(act.ts, f.fallback_ts) AS ts,
      COALESCE(act.dur, f.fallback_dur) AS dur,
      f.do_frame_id,
      f.draw_frame_id,
      act.slice_id AS actual_frame_timeline_id,
      exp.id AS expected_frame_timeline_id,
      f.render_thread_utid,
      f.ui_thread_utid,
      act.layer_id,
      act.layer_name,
      f.upid,
      p.name AS process_name
    FROM app_frames AS f
    JOIN process AS p USING (upid)
    LEFT JOIN _distinct_layer_actual_timeline_slice_per_process AS act
      ON act.frame_id = f.frame_id AND act.upid = f.upid
    LEFT JOIN _distinct_from_expected_timeline_slice_per_process AS exp
      ON exp.frame_id = f.frame_id AND exp.upid = f.upid
    WHERE (SELECT yes FROM has_timeline)
  ),
  without_timeline AS (
    SELECT
      frame_id, ts, dur, do_frame_id, draw_frame_id,
      NULL AS actual_frame_timeline_id, NULL AS expected_frame_timeline_id,
      render_thread_utid, ui_thread_utid, NULL AS layer_id, NULL AS layer_name,
      upid, process_name
    FROM _frames_maxsdk_28
    WHERE NOT (SELECT yes FROM has_timeline)
  ),
  all_frames AS (
    SELECT * FROM with_timeline
    UNION
    SELECT * FROM without_timeline
  )
SELECT
  frame_id, ts, dur, ts + dur AS ts_end, do_frame_id, draw_frame_id,
  actual_frame_timeline_id, expected_frame_timeline_id, render_thread_utid, ui_thread_utid,
  layer_id, layer_name, upid, process_name
FROM all_frames
ORDER BY frame_id, ts;

-- One row per app frame (vsync id and process), over all its layers: the earliest start, the
-- longest duration, the first doFrame / DrawFrame / actual timeline slice, and how many actual
-- timeline slices and DrawFrames the frame had.
CREATE PERFETTO TABLE android_frames(
  -- The frame's vsync id (the surface frame token).
  frame_id LONG,
  -- When the frame began: the actual timeline slice's start when SurfaceFlinger reported it, else
  -- the doFrame's.
  ts TIMESTAMP,
  -- How long the frame took, in ns: the actual timeline slice's duration, else from doFrame to
  -- the end of the last DrawFrame.
  dur DURATION,
  -- The Choreographer#doFrame slice (slice.id).
  do_frame_id JOINID(slice.id),
  -- One DrawFrame slice of the frame (slice.id); draw_frame_count says how many.
  draw_frame_id JOINID(slice.id),
  -- One actual frame timeline slice of the frame (one per layer); NULL without a frame timeline.
  actual_frame_timeline_id JOINID(slice.id),
  -- One expected frame timeline slice of the frame.
  expected_frame_timeline_id JOINID(slice.id),
  -- The app's RenderThread (thread.id).
  render_thread_utid JOINID(thread.id),
  -- The app's UI (main) thread (thread.id).
  ui_thread_utid JOINID(thread.id),
  -- How many actual timeline slices (layers) the frame has.
  actual_frame_timeline_count LONG,
  -- How many expected timeline slices the frame has.
  expected_frame_timeline_count LONG,
  -- How many DrawFrame slices the frame has.
  draw_frame_count LONG,
  -- The app's process (process.id).
  upid JOINID(process.id),
  -- The app's process name.
  process_name STRING
) AS
SELECT
  frame_id,
  MIN(ts) AS ts,
  MAX(dur) AS dur,
  MIN(do_frame_id) AS do_frame_id,
  MIN(draw_frame_id) AS draw_frame_id,
  MIN(actual_frame_timeline_id) AS actual_frame_timeline_id,
  MIN(expected_frame_timeline_id) AS expected_frame_timeline_id,
  MIN(render_thread_utid) AS render_thread_utid,
  MIN(ui_thread_utid) AS ui_thread_utid,
  COUNT(DISTINCT actual_frame_timeline_id) AS actual_frame_timeline_count,
  1 AS expected_frame_timeline_count,
  COUNT(DISTINCT draw_frame_id) AS draw_frame_count,
  upid,
  MIN(process_name) AS process_name
FROM android_frames_layers
GROUP BY frame_id, upid
ORDER BY ts;

-- The first frame (of any process) that starts after $ts: at most one row.
CREATE PERFETTO FUNCTION android_first_frame_after(
  -- A timestamp (trace clock, ns).
  ts TIMESTAMP
)
RETURNS TABLE(
  -- The frame's vsync id (the surface frame token).
  frame_id LONG,
  -- When the frame began: the actual timeline slice's start when SurfaceFlinger reported it, else
  -- the doFrame's.
  ts TIMESTAMP,
  -- How long the frame took, in ns: the actual timeline slice's duration, else from doFrame to
  -- the end of the last DrawFrame.
  dur DURATION,
  -- The Choreographer#doFrame slice (slice.id).
  do_frame_id JOINID(slice.id),
  -- The DrawFrame slice (slice.id).
  draw_frame_id JOINID(slice.id),
  -- The actual frame timeline slice (actual_frame_timeline_slice.id), if any.
  actual_frame_timeline_id JOINID(slice.id),
  -- The expected frame timeline slice (expected_frame_timeline_slice.id), if any.
  expected_frame_timeline_id JOINID(slice.id),
  -- The app's RenderThread (thread.id).
  render_thread_utid JOINID(thread.id),
  -- The app's UI (main) thread (thread.id).
  ui_thread_utid JOINID(thread.id)
) AS
SELECT
  frame_id, ts, dur, do_frame_id, draw_frame_id, actual_frame_timeline_id,
  expected_frame_timeline_id, render_thread_utid, ui_thread_utid
FROM android_frames
WHERE ts > $ts
ORDER BY ts
LIMIT 1;
