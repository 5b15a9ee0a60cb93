-- Per-frame metrics of Android apps: how far each frame overran its deadline, how long its
-- UI-thread and render-thread work took, and the jank flags derived from them.

INCLUDE PERFETTO MODULE time.conversion;
INCLUDE PERFETTO MODULE android.frames.timeline;

-- The first actual and first expected frame-timeline slice (lowest id) of each frame id: a
-- frame id can have several (one per layer, and SurfaceFlinger's own).
CREATE PERFETTO TABLE _android_frame_first_timeline_slices AS
SELECT frame_id, MIN(actual_id) AS actual_id, MIN(expected_id) AS expected_id
FROM (
  SELECT cast_int!(name) AS frame_id, id AS actual_id, NULL AS expected_id
  FROM actual_frame_timeline_slice
  UNION ALL
  SELECT cast_int!(name) AS frame_id, NULL AS actual_id, id AS expected_id
  FROM expected_frame_timeline_slice
)
GROUP BY frame_id;

-- How much each frame missed (positive) or beat (negative) its deadline by: the end of its
-- first actual timeline slice minus the end of its first expected one. A frame is janky when
-- this is positive. Available from Android S (API 31).
CREATE PERFETTO TABLE android_frames_overrun(
  -- The frame id (vsync id).
  frame_id LONG,
  -- Actual end minus expected end, in ns; negative when the deadline was met.
  overrun LONG
) AS
SELECT f.frame_id, (a.ts + a.dur) - (e.ts + e.dur) AS overrun
FROM _android_frame_first_timeline_slices AS f
JOIN slice AS a ON a.id = f.actual_id
JOIN slice AS e ON e.id = f.expected_id
ORDER BY f.frame_id;

-- How long each frame's Choreographer callbacks (its Choreographer#doFrame slice) took.
CREATE PERFETTO TABLE android_frames_ui_time(
  -- The frame id (vsync id).
  frame_id LONG,
  -- The Choreographer#doFrame slice's duration, in ns.
  ui_time LONG
) AS
SELECT d.frame_id, s.dur AS ui_time
FROM android_frames_choreographer_do_frame AS d
JOIN slice AS s USING (id);

-- The app's VSYNC delay per frame: from the VSYNC-app signal (the expected timeline's start) to
-- the start of the frame's work (the actual timeline's start).
CREATE PERFETTO TABLE android_app_vsync_delay_per_frame(
  -- The frame id (vsync id).
  frame_id LONG,
  -- Actual start minus expected start, in ns.
  app_vsync_delay LONG
) AS
SELECT f.frame_id, a.ts - e.ts AS app_vsync_delay
FROM (
  SELECT frame_id, MIN(actual_frame_timeline_id) AS actual_id,
    MIN(expected_frame_timeline_id) AS expected_id
  FROM android_frames
  GROUP BY frame_id
) AS f
JOIN slice AS a ON a.id = f.actual_id
JOIN slice AS e ON e.id = f.expected_id
ORDER BY f.frame_id;

-- CPU time of each frame across the UI thread and the RenderThread: the app VSYNC delay, the
-- Choreographer#doFrame duration and every DrawFrame of the frame together. Available from
-- Android N (API 24).
CREATE PERFETTO TABLE android_cpu_time_per_frame(
  -- The frame id (vsync id).
  frame_id LONG,
  -- See android_app_vsync_delay_per_frame.
  app_vsync_delay LONG,
  -- The Choreographer#doFrame slice's duration, in ns.
  do_frame_dur DURATION,
  -- The DrawFrame slices' total duration, in ns.
  draw_frame_dur DURATION,
  -- app_vsync_delay + do_frame_dur + draw_frame_dur.
  cpu_time LONG
) AS
WITH
  draw AS (
    SELECT d.frame_id, SUM(s.dur) AS draw_frame_dur
    FROM android_frames_draw_frame AS d
    JOIN slice AS s USING (id)
    GROUP BY d.frame_id
  ),
  do_frame AS (
    SELECT frame_id, MIN(do_frame_id) AS do_frame_id FROM android_frames GROUP BY frame_id
  )
SELECT
  v.frame_id,
  v.app_vsync_delay,
  s.dur AS do_frame_dur,
  draw.draw_frame_dur,
  v.app_vsync_delay + s.dur + draw.draw_frame_dur AS cpu_time
FROM android_app_vsync_delay_per_frame AS v
JOIN draw USING (frame_id)
JOIN do_frame USING (frame_id)
JOIN slice AS s ON s.id = do_frame.do_frame_id
ORDER BY v.frame_id;

-- Each frame's CPU time: android_cpu_time_per_frame's where it has one, else an estimate of
-- the UI time plus 5 ms.
CREATE PERFETTO TABLE _estimated_cpu_time_per_frame AS
SELECT
  u.frame_id,
  COALESCE(c.cpu_time, u.ui_time + time_from_ms(5)) AS cpu_time
FROM android_frames_ui_time AS u
LEFT JOIN android_cpu_time_per_frame AS c USING (frame_id);

-- Each frame's overrun, CPU time and UI time, with the jank flags derived from them.
CREATE PERFETTO TABLE android_frame_stats(
  -- The frame id (vsync id).
  frame_id LONG,
  -- See android_frames_overrun.
  overrun LONG,
  -- CPU time across the UI thread and RenderThread (see android_cpu_time_per_frame; UI time
  -- + 5 ms when that is not available).
  cpu_time LONG,
  -- See android_frames_ui_time.
  ui_time LONG,
  -- 1 when the frame overran its deadline, else NULL.
  was_jank BOOL,
  -- 1 when its CPU time exceeded 20 ms, else NULL.
  was_slow_frame BOOL,
  -- 1 when its CPU time exceeded 50 ms, else NULL.
  was_big_jank BOOL,
  -- 1 when its CPU time exceeded 200 ms, else NULL.
  was_huge_jank BOOL
) AS
SELECT
  o.frame_id,
  o.overrun,
  c.cpu_time,
  u.ui_time,
  IIF(o.overrun > 0, 1, NULL) AS was_jank,
  IIF(c.cpu_time > time_from_ms(20), 1, NULL) AS was_slow_frame,
  IIF(c.cpu_time > time_from_ms(50), 1, NULL) AS was_big_jank,
  IIF(c.cpu_time > time_from_ms(200), 1, NULL) AS was_huge_jank
FROM android_frames_overrun AS o
JOIN android_frames_ui_time AS u USING (frame_id)
JOIN _estimated_cpu_time_per_frame AS c USING (frame_id)
ORDER BY o.frame_id;
