-- Counter samples turned into intervals that last until the next sample.

-- For a counter-like table (id, ts, track_id, value): one row per sample with
--   dur         until the next sample on the same track (the last one: until the trace's end),
--   next_value  the next sample's value (NULL for the last one),
--   delta_value value minus the previous sample's value (NULL for the first one).
-- Columns: id, ts, dur, track_id, value, next_value, delta_value; ordered by track, then ts.
CREATE PERFETTO MACRO counter_leading_intervals(
  -- A table or subquery with id, ts, track_id and value columns (counter or a subset of it).
  counter_table TableOrSubquery
)
-- The samples as intervals.
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
