-- App launches on Android 9 and older.

INCLUDE PERFETTO MODULE android.frames.timeline;
INCLUDE PERFETTO MODULE android.startup.startup_events;
INCLUDE PERFETTO MODULE slices.with_context;

-- Cold and warm launches are the "launching:" slices (type decided later from the app's
-- slices). A main-thread activityResume outside all of them is a hot launch, ending with the
-- first frame after it.
CREATE PERFETTO TABLE _startups_maxsdk28 AS
WITH
  warm_and_cold AS (
    SELECT ts, ts_end, package_name AS package, NULL AS startup_type FROM _startup_events
  ),
  resumes AS (
    SELECT ts, COALESCE(process_name, thread_name, 'unknown') AS package
    FROM thread_slice AS sl
    WHERE name = 'activityResume' AND is_main_thread
      AND NOT EXISTS (SELECT 1 FROM warm_and_cold AS w WHERE sl.ts BETWEEN w.ts AND w.ts_end)
  ),
  maybe_hot AS (
    SELECT
      r.ts,
      (SELECT f.ts + f.dur FROM android_frames AS f WHERE f.ts > r.ts ORDER BY f.ts LIMIT 1)
        AS ts_end,
      r.package,
      'hot' AS startup_type
    FROM resumes AS r
  ),
  all_startups AS (
    SELECT * FROM warm_and_cold
    UNION ALL
    SELECT * FROM maybe_hot WHERE ts_end IS NOT NULL
  )
SELECT ts, ts_end, ts_end - ts AS dur, package, startup_type
FROM all_startups
ORDER BY ts;
