-- Time to initial / full display of each app launch.

INCLUDE PERFETTO MODULE android.startup.startups;
INCLUDE PERFETTO MODULE android.frames.timeline;
INCLUDE PERFETTO MODULE slices.with_context;

-- Launches with the process they started (from android_startup_processes, else any process
-- whose name matches the package).
CREATE PERFETTO VIEW _startups_with_upid AS
SELECT
  s.startup_id, s.ts, s.ts_end, s.dur, s.package, s.startup_type,
  COALESCE(
    (SELECT MIN(p.upid) FROM android_startup_processes AS p WHERE p.startup_id = s.startup_id),
    (SELECT MIN(pr.upid) FROM process AS pr WHERE pr.name GLOB s.package)) AS upid
FROM android_startups AS s;

-- TTID: from the launch start to the end of the DrawFrame of the app's first frame at or
-- after the launch start.
CREATE PERFETTO TABLE _ttid AS
WITH first_frame AS (
  SELECT
    s.startup_id, s.ts AS startup_ts, s.upid, f.frame_id, f.draw_frame_id,
    ROW_NUMBER() OVER (PARTITION BY s.startup_id ORDER BY f.ts) AS rank
  FROM _startups_with_upid AS s
  JOIN android_frames AS f ON f.upid = s.upid AND f.ts >= s.ts
  JOIN thread AS t ON t.utid = f.ui_thread_utid
)
SELECT ff.startup_id, ff.frame_id, ff.draw_frame_id, d.ts + d.dur - ff.startup_ts AS ttid,
       ff.upid
FROM first_frame AS ff
JOIN slice AS d ON d.id = ff.draw_frame_id
WHERE ff.rank = 1;

-- TTFD: from the launch start to the end of the DrawFrame of the first frame on the UI
-- thread that ends after the first main-thread reportFullyDrawn began (UI code runs both
-- before and inside frames, so a frame containing the report counts).
CREATE PERFETTO TABLE _ttfd AS
WITH
  first_report AS (
    SELECT startup_id, startup_ts, report_ts, utid, upid
    FROM (
      SELECT
        s.startup_id, s.ts AS startup_ts, t.ts AS report_ts, t.utid, s.upid,
        ROW_NUMBER() OVER (PARTITION BY s.startup_id ORDER BY t.ts) AS rank
      FROM _startups_with_upid AS s
      JOIN thread_slice AS t ON t.upid = s.upid AND t.ts >= s.ts
      WHERE t.name GLOB 'reportFullyDrawn*' AND t.is_main_thread = 1
    )
    WHERE rank = 1
  ),
  first_frame AS (
    SELECT
      r.startup_id, r.startup_ts, r.upid, f.frame_id, f.draw_frame_id,
      ROW_NUMBER() OVER (PARTITION BY r.startup_id ORDER BY f.ts) AS rank
    FROM first_report AS r
    JOIN android_frames AS f ON f.ui_thread_utid = r.utid AND r.report_ts < f.ts + f.dur
  )
SELECT ff.startup_id, ff.frame_id, ff.draw_frame_id, d.ts + d.dur - ff.startup_ts AS ttfd,
       ff.upid
FROM first_frame AS ff
JOIN slice AS d ON d.id = ff.draw_frame_id
WHERE ff.rank = 1;

-- Time to initial display (TTID) and to full display (TTFD) per launch, with their frames.
CREATE PERFETTO TABLE android_startup_time_to_display(
  -- The startup (android_startups.startup_id).
  startup_id LONG,
  -- Time to initial display (TTID): from the launch to the end of the first frame, in ns.
  time_to_initial_display LONG,
  -- Time to full display (TTFD): from the launch to the frame after reportFullyDrawn, in ns; NULL
  -- if the app never reported.
  time_to_full_display LONG,
  -- The frame that ended TTID (android_frames.frame_id).
  ttid_frame_id LONG,
  -- The frame that ended TTFD (android_frames.frame_id).
  ttfd_frame_id LONG,
  -- The launched process (process.id).
  upid JOINID(process.id)
) AS
SELECT
  s.startup_id,
  i.ttid AS time_to_initial_display,
  f.ttfd AS time_to_full_display,
  i.frame_id AS ttid_frame_id,
  f.frame_id AS ttfd_frame_id,
  i.upid
FROM android_startups AS s
LEFT JOIN _ttid AS i USING (startup_id)
LEFT JOIN _ttfd AS f USING (startup_id);
