// android.frames.jank_type: which side a frame timeline "Jank type" blames (SurfaceFlinger,
// the app, or a missed frame of either kind).
#include "libs/trace/stdlib/stdlib.h"

namespace tw::stdlib_modules {
extern const SqlModule kAndroidFramesJankType;
const SqlModule kAndroidFramesJankType = {"android.frames.jank_type", R"sql(
-- Whether $jank_type (a "Jank type" text, possibly several reasons joined by ", ") names a
-- SurfaceFlinger / display cause.
CREATE PERFETTO FUNCTION android_is_sf_jank_type(jank_type STRING)
RETURNS BOOL AS
SELECT
  $jank_type GLOB '*SurfaceFlinger CPU Deadline Missed*'
  OR $jank_type GLOB '*SurfaceFlinger GPU Deadline Missed*'
  OR $jank_type GLOB '*SurfaceFlinger Scheduling*'
  OR $jank_type GLOB '*Prediction Error*'
  OR $jank_type GLOB '*Display HAL*';

-- Whether $jank_type names an app cause.
CREATE PERFETTO FUNCTION android_is_app_jank_type(jank_type STRING)
RETURNS BOOL AS
SELECT
  $jank_type GLOB '*App Deadline Missed*'
  OR $jank_type GLOB '*App Resynced Jitter*';

-- Whether $jank_type makes the frame a missed frame: SurfaceFlinger jank, app jank or a
-- dropped frame.
CREATE PERFETTO FUNCTION android_is_missed_frame_type(jank_type STRING)
RETURNS BOOL AS
SELECT
  android_is_sf_jank_type($jank_type)
  OR android_is_app_jank_type($jank_type)
  OR $jank_type GLOB '*Dropped Frame*';
)sql"};
}  // namespace tw::stdlib_modules
