// counters.intervals: counter samples turned into intervals that last until the next sample.
#include "libs/trace/stdlib/stdlib.h"

namespace tw::stdlib_modules {
extern const SqlModule kCountersIntervals;
const SqlModule kCountersIntervals = {"counters.intervals", R"sql(
-- For a counter-like table (id, ts, track_id, value): one row per sample with
--   dur         until the next sample on the same track (the last one: until the trace's end),
--   next_value  the next sample's value (NULL for the last one),
--   delta_value value minus the previous sample's value (NULL for the first one).
-- Columns: id, ts, dur, track_id, value, next_value, delta_value; ordered by track, then ts.
CREATE PERFETTO MACRO counter_leading_intervals(counter_table TableOrSubquery)
RETURNS TableOrSubquery AS (
  SELECT
    id,
    ts,
    IFNULL(LEAD(ts) OVER by_track, trace_end()) - ts AS dur,
    track_id,
    cast_double!(value) AS value,
    cast_double!(LEAD(value) OVER by_track) AS next_value,
    cast_double!(value - LAG(value) OVER by_track) AS delta_value
  FROM $counter_table
  WINDOW by_track AS (PARTITION BY track_id ORDER BY ts, id)
  ORDER BY track_id, ts, id
);
)sql"};
}  // namespace tw::stdlib_modules
