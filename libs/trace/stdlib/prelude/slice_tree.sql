-- Walking the slice tree: ancestors and descendants of a slice on its track.

INCLUDE PERFETTO MODULE prelude.events;

-- Whether one slice is an ancestor of another (same track, shallower, enclosing it).
CREATE PERFETTO FUNCTION slice_is_ancestor(
  -- The would-be ancestor (slice.id).
  ancestor_id LONG,
  -- The would-be descendant (slice.id).
  descendant_id LONG
)
-- 1 when ancestor_id encloses descendant_id, else 0.
RETURNS BOOL AS
SELECT
  a.track_id = d.track_id
  AND a.depth < d.depth
  AND a.ts <= d.ts
  AND (a.dur = -1 OR a.ts + a.dur >= d.ts + d.dur)
FROM slice AS a, slice AS d
WHERE a.id = $ancestor_id AND d.id = $descendant_id;

-- Every ancestor of a slice (parent, grandparent, ...), in id order.
CREATE PERFETTO FUNCTION ancestor_slice(
  -- The slice whose ancestors to list (slice.id).
  slice_id LONG
)
RETURNS TABLE(
  -- The ancestor's id (slice.id).
  id LONG,
  -- When it began (trace clock, ns).
  ts TIMESTAMP,
  -- Its duration in ns.
  dur DURATION,
  -- Its track.
  track_id LONG,
  -- Its category.
  category STRING,
  -- Its name.
  name STRING,
  -- Its depth.
  depth LONG,
  -- Its parent.
  parent_id LONG,
  -- Its args.
  arg_set_id LONG,
  -- Thread CPU time when it began, if recorded.
  thread_ts TIMESTAMP,
  -- Thread CPU time spent in it, if recorded.
  thread_dur DURATION,
  -- Instruction counter when it began, if recorded.
  thread_instruction_count LONG,
  -- Instructions retired during it, if recorded.
  thread_instruction_delta LONG
) AS
WITH RECURSIVE up(id) AS (
  SELECT parent_id FROM __intrinsic_slice WHERE id = $slice_id AND parent_id IS NOT NULL
  UNION ALL
  SELECT s.parent_id FROM __intrinsic_slice AS s JOIN up ON s.id = up.id
  WHERE s.parent_id IS NOT NULL
)
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  s.thread_ts, s.thread_dur, s.thread_instruction_count, s.thread_instruction_delta
FROM up JOIN __intrinsic_slice AS s ON s.id = up.id
ORDER BY s.id;

-- Every descendant of a slice (children, grandchildren, ...), in id order.
CREATE PERFETTO FUNCTION descendant_slice(
  -- The slice whose descendants to list (slice.id).
  slice_id LONG
)
RETURNS TABLE(
  -- The descendant's id (slice.id).
  id LONG,
  -- When it began (trace clock, ns).
  ts TIMESTAMP,
  -- Its duration in ns.
  dur DURATION,
  -- Its track.
  track_id LONG,
  -- Its category.
  category STRING,
  -- Its name.
  name STRING,
  -- Its depth.
  depth LONG,
  -- Its parent.
  parent_id LONG,
  -- Its args.
  arg_set_id LONG,
  -- Thread CPU time when it began, if recorded.
  thread_ts TIMESTAMP,
  -- Thread CPU time spent in it, if recorded.
  thread_dur DURATION,
  -- Instruction counter when it began, if recorded.
  thread_instruction_count LONG,
  -- Instructions retired during it, if recorded.
  thread_instruction_delta LONG
) AS
WITH RECURSIVE down(id) AS (
  SELECT id FROM __intrinsic_slice WHERE parent_id = $slice_id
  UNION ALL
  SELECT s.id FROM __intrinsic_slice AS s JOIN down ON s.parent_id = down.id
)
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  s.thread_ts, s.thread_dur, s.thread_instruction_count, s.thread_instruction_delta
FROM down JOIN __intrinsic_slice AS s ON s.id = down.id
ORDER BY s.id;
