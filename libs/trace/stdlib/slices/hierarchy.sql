-- A slice with its ancestors or descendants, and pruning slices out of trees.

-- The slice itself first, then its ancestors from the root down (ancestor_slice's order).
CREATE PERFETTO FUNCTION _slice_ancestor_and_self(slice_id JOINID(slice.id))
RETURNS TABLE(
  id JOINID(slice.id), ts TIMESTAMP, dur DURATION, track_id JOINID(track.id),
  category STRING, name STRING, depth LONG, parent_id JOINID(slice.id),
  arg_set_id ARGSETID, thread_ts TIMESTAMP, thread_dur LONG
) AS
SELECT id, ts, dur, track_id, category, name, depth, parent_id, arg_set_id, thread_ts, thread_dur
FROM slice
WHERE id = $slice_id
UNION ALL
SELECT id, ts, dur, track_id, category, name, depth, parent_id, arg_set_id, thread_ts, thread_dur
FROM ancestor_slice($slice_id);

-- The slice itself first, then its descendants (descendant_slice's order).
CREATE PERFETTO FUNCTION _slice_descendant_and_self(slice_id JOINID(slice.id))
RETURNS TABLE(
  id JOINID(slice.id), ts TIMESTAMP, dur DURATION, track_id JOINID(track.id),
  category STRING, name STRING, depth LONG, parent_id JOINID(slice.id),
  arg_set_id ARGSETID, thread_ts TIMESTAMP, thread_dur LONG
) AS
SELECT id, ts, dur, track_id, category, name, depth, parent_id, arg_set_id, thread_ts, thread_dur
FROM slice
WHERE id = $slice_id
UNION ALL
SELECT id, ts, dur, track_id, category, name, depth, parent_id, arg_set_id, thread_ts, thread_dur
FROM descendant_slice($slice_id);

-- Keeps the rows of `slice_table` (id, parent_id, depth, <column_name>, ...) whose
-- `column_name` is not NULL and hangs each kept slice under its nearest kept ancestor.
-- Returns (id, parent_id, depth, <column_name>): rows at depth 0 keep their parent_id and depth;
-- deeper rows get parent_id = the nearest kept ancestor and depth = that ancestor's depth in
-- `slice`, or NULL and 0 when no ancestor is kept. Rows at depth 0 come first, then the rest,
-- each in id order.
CREATE PERFETTO MACRO _slice_remove_nulls_and_reparent(
  slice_table TableOrSubquery,
  column_name ColumnName
)
RETURNS TableOrSubquery AS (
  WITH RECURSIVE
    _kept AS MATERIALIZED (
      SELECT * FROM $slice_table WHERE $column_name IS NOT NULL
    ),
    -- Walks up from each kept, non-root slice; `above` is the slice being looked at.
    _walk(id, above) AS (
      SELECT k.id, k.parent_id FROM _kept AS k WHERE k.depth != 0 AND k.parent_id IS NOT NULL
      UNION ALL
      SELECT w.id, s.parent_id
      FROM _walk AS w
      JOIN slice AS s ON s.id = w.above
      WHERE s.parent_id IS NOT NULL AND w.above NOT IN (SELECT id FROM _kept)
    ),
    _new_parent AS (
      SELECT id, above AS parent_id FROM _walk WHERE above IN (SELECT id FROM _kept)
    )
  SELECT
    k.id,
    IIF(k.depth = 0, k.parent_id, np.parent_id) AS parent_id,
    IIF(k.depth = 0, k.depth, IFNULL(ps.depth, 0)) AS depth,
    k.$column_name
  FROM _kept AS k
  LEFT JOIN _new_parent AS np ON np.id = k.id
  LEFT JOIN slice AS ps ON ps.id = np.parent_id
  ORDER BY k.depth != 0, k.id
);
