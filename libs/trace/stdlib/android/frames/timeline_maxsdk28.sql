-- App frames on Android 9 and older (no frame timeline):
-- each Choreographer#doFrame with the DrawFrames that follow it before the next one.

INCLUDE PERFETTO MODULE slices.with_context;

-- One row per (doFrame, DrawFrame) pair. Old releases put no vsync id in the slice names, so
-- frames are numbered here (from 1, in time order) and a DrawFrame belongs to the last
-- doFrame of its process that started before it. dur runs to the end of the frame's last
-- DrawFrame.
CREATE PERFETTO TABLE _frames_maxsdk_28(
  frame_id LONG, ts TIMESTAMP, dur DURATION, do_frame_id JOINID(slice.id),
  draw_frame_id JOINID(slice.id), render_thread_utid JOINID(thread.id),
  ui_thread_utid JOINID(thread.id), upid JOINID(process.id), process_name STRING, sdk STRING
) AS
WITH
  do_frame AS (
    SELECT
      id, ts, utid, upid,
      LEAD(ts, 1, trace_end()) OVER (PARTITION BY upid ORDER BY ts) AS next_ts
    FROM thread_slice
    WHERE name = 'Choreographer#doFrame' AND is_main_thread = 1
  ),
  draw_frame AS (
    SELECT id, ts, ts + dur AS end_ts, utid, upid
    FROM thread_slice
    WHERE name = 'DrawFrame'
  ),
  paired AS (
    SELECT
      d.id AS do_frame_id, d.ts, d.utid AS ui_thread_utid, d.upid,
      r.id AS draw_frame_id, r.utid AS render_thread_utid,
      MAX(r.end_ts) OVER (PARTITION BY d.id) AS frame_end
    FROM do_frame AS d
    JOIN draw_frame AS r ON r.upid = d.upid AND r.ts >= d.ts AND r.ts < d.next_ts
  )
SELECT
  ROW_NUMBER() OVER (ORDER BY p.ts, p.do_frame_id, p.draw_frame_id) AS frame_id,
  p.ts,
  p.frame_end - p.ts AS dur,
  p.do_frame_id,
  p.draw_frame_id,
  p.render_thread_utid,
  p.ui_thread_utid,
  p.upid,
  pr.name AS process_name,
  'maxsdk28' AS sdk
FROM paired AS p
JOIN process AS pr USING (upid)
ORDER BY p.ts;
