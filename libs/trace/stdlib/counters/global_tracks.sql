-- Helpers for counter tracks that are global (identified by their name alone).

-- Whether a counter track has no dimension other than its name (a global track such as
-- "mem.dma_heap", as opposed to a per-cpu, per-process or per-heap one).
CREATE PERFETTO FUNCTION _counter_track_is_only_name_dimension(
  -- The counter track (track.id).
  track_id LONG
)
-- 1 when the track's only dimension (if any) is its name.
RETURNS BOOL AS
SELECT NOT EXISTS (
  SELECT 1
  FROM counter_track AS t
  JOIN args AS a ON a.arg_set_id = t.dimension_arg_set_id
  WHERE t.id = $track_id AND a.key != 'name'
);
