-- Which side a frame timeline "Jank type" blames (SurfaceFlinger,
-- the app, or a missed frame of either kind).

-- Whether $jank_type (a "Jank type" text, possibly several reasons joined by ", ") names a
-- SurfaceFlinger / display cause.
CREATE PERFETTO FUNCTION android_is_sf_jank_type(
  -- A jank_type as actual_frame_timeline_slice spells it (comma-separated causes).
  jank_type STRING
)
-- 1 when it names a SurfaceFlinger cause, else 0.
RETURNS BOOL AS
SELECT
  $jank_type GLOB '*SurfaceFlinger CPU Deadline Missed*'
  OR $jank_type GLOB '*SurfaceFlinger GPU Deadline Missed*'
  OR $jank_type GLOB '*SurfaceFlinger Scheduling*'
  OR $jank_type GLOB '*Prediction Error*'
  OR $jank_type GLOB '*Display HAL*';

-- Whether $jank_type names an app cause.
CREATE PERFETTO FUNCTION android_is_app_jank_type(
  -- A jank_type as actual_frame_timeline_slice spells it (comma-separated causes).
  jank_type STRING
)
-- 1 when it names a app cause, else 0.
RETURNS BOOL AS
SELECT
  $jank_type GLOB '*App Deadline Missed*'
  OR $jank_type GLOB '*App Resynced Jitter*';

-- Whether $jank_type makes the frame a missed frame: SurfaceFlinger jank, app jank or a
-- dropped frame.
CREATE PERFETTO FUNCTION android_is_missed_frame_type(
  -- A jank_type as actual_frame_timeline_slice spells it (comma-separated causes).
  jank_type STRING
)
-- 1 when it names a missed-frame cause, else 0.
RETURNS BOOL AS
SELECT
  android_is_sf_jank_type($jank_type)
  OR android_is_app_jank_type($jank_type)
  OR $jank_type GLOB '*Dropped Frame*';
