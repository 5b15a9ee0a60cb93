-- How long each slice ran outside its children (slice_self_dur).

-- A slice's self duration: its dur minus the durs of its direct children.
CREATE PERFETTO TABLE slice_self_dur(
  -- The slice (slice.id).
  id ID(slice.id),
  -- Its duration minus its direct children's, in ns.
  self_dur DURATION
) AS
SELECT
  s.id,
  s.dur - IFNULL((SELECT SUM(c.dur) FROM slice AS c WHERE c.parent_id = s.id), 0) AS self_dur
FROM slice AS s
ORDER BY s.id;
