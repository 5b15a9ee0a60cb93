-- How many intervals are open over time, and merging overlapping intervals.

INCLUDE PERFETTO MODULE std.metasql.unparenthesize;

-- A step counter of how many of the intervals (ts_column, dur_column) of `segments` are open:
-- one row (ts, value) per distinct start or end timestamp, `value` holding from `ts` to the next
-- row. Intervals with dur -1 (never ended) stay open.
CREATE PERFETTO MACRO intervals_overlap_count(
  -- A table or subquery of intervals.
  segments TableOrSubquery,
  -- Its start column.
  ts_column ColumnName,
  -- Its duration column.
  dur_column ColumnName
)
RETURNS TableOrSubquery AS (
  SELECT
    edge_ts AS ts,
    SUM(change) OVER (ORDER BY edge_ts ROWS UNBOUNDED PRECEDING) AS value
  FROM (
    SELECT edge_ts, SUM(change) AS change
    FROM (
      SELECT $ts_column AS edge_ts, 1 AS change FROM $segments
      UNION ALL
      SELECT $ts_column + $dur_column AS edge_ts, -1 AS change
      FROM $segments
      WHERE $dur_column != -1
    )
    GROUP BY edge_ts
  )
  ORDER BY edge_ts
);

-- intervals_overlap_count!, counted separately for each value of `group_column`:
-- (ts, value, group_name), ordered by ts.
CREATE PERFETTO MACRO intervals_overlap_count_by_group(
  -- A table or subquery of intervals.
  segments TableOrSubquery,
  -- Its start column.
  ts_column ColumnName,
  -- Its duration column.
  dur_column ColumnName,
  -- The column to count within.
  group_column ColumnName
)
RETURNS TableOrSubquery AS (
  SELECT
    edge_ts AS ts,
    SUM(change) OVER (
      PARTITION BY edge_group ORDER BY edge_ts ROWS UNBOUNDED PRECEDING
    ) AS value,
    edge_group AS group_name
  FROM (
    SELECT edge_ts, edge_group, SUM(change) AS change
    FROM (
      SELECT $ts_column AS edge_ts, $group_column AS edge_group, 1 AS change FROM $segments
      UNION ALL
      SELECT $ts_column + $dur_column AS edge_ts, $group_column AS edge_group, -1 AS change
      FROM $segments
      WHERE $dur_column != -1
    )
    GROUP BY edge_ts, edge_group
  )
  ORDER BY edge_ts
);

-- 1 if any two of the (ts, dur) intervals overlap (ignoring dur -1), else 0. A subquery, so it
-- also reads as a one-row table with the column `has_overlaps`.
CREATE PERFETTO MACRO _intervals_overlap_in_table(intervals TableOrSubquery)
RETURNS Expr AS (
  SELECT COUNT(*) AS has_overlaps FROM (
    SELECT 1
    FROM (
      SELECT ts + dur AS end_ts, LEAD(ts) OVER (ORDER BY ts) AS next_start
      FROM $intervals
      WHERE dur != -1
    )
    WHERE end_ts > next_start
    LIMIT 1
  )
);

-- The smallest set of disjoint (ts, dur) intervals covering the input's (ts, dur) intervals,
-- where intervals at most `epsilon` apart count as overlapping. Ordered by ts.
CREATE PERFETTO MACRO interval_merge_overlapping(
  -- A table or subquery with ts and dur columns.
  intervals TableOrSubquery,
  -- Gaps up to this long (ns) are bridged.
  epsilon Expr
)
RETURNS TableOrSubquery AS (
  SELECT MIN(ts) AS ts, MAX(end_ts) - MIN(ts) AS dur
  FROM (
    SELECT
      ts,
      end_ts,
      SUM(starts_group) OVER (ORDER BY ts, end_ts ROWS UNBOUNDED PRECEDING) AS grp
    FROM (
      SELECT
        ts,
        end_ts,
        IFNULL(ts > MAX(end_ts) OVER (
          ORDER BY ts, end_ts ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) + ($epsilon), 1) AS starts_group
      FROM (SELECT ts, ts + dur AS end_ts FROM $intervals WHERE dur != -1)
    )
  )
  GROUP BY grp
  ORDER BY ts
);

-- interval_merge_overlapping! (without tolerance) within each partition given by the
-- parenthesised column list `partition_columns`: (ts, dur, <partition columns>).
CREATE PERFETTO MACRO interval_merge_overlapping_partitioned(
  -- A table or subquery with ts, dur and the partition columns.
  intervals TableOrSubquery,
  -- The columns to merge within, e.g. (utid).
  partition_columns ColumnNameList
)
RETURNS TableOrSubquery AS (
  SELECT
    MIN(ts) AS ts,
    MAX(ts + dur) - MIN(ts) AS dur,
    metasql_unparenthesize_exprlist!($partition_columns)
  FROM (
    SELECT
      *,
      SUM(IFNULL(ts > reach_so_far, 1)) OVER (
        PARTITION BY metasql_unparenthesize_exprlist!($partition_columns)
        ORDER BY ts ROWS UNBOUNDED PRECEDING
      ) AS grp
    FROM (
      SELECT
        *,
        MAX(ts + dur) OVER (
          PARTITION BY metasql_unparenthesize_exprlist!($partition_columns)
          ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS reach_so_far
      FROM $intervals
      WHERE dur >= 0
    )
  )
  GROUP BY metasql_unparenthesize_exprlist!($partition_columns), grp
);

-- Joins roots and their children into the table _intervals_flatten! reads: one row per child
-- with its root's span, plus one row per root without children (as its own interval, with a
-- NULL parent).
CREATE PERFETTO MACRO _intervals_merge_root_and_children(
  -- The root intervals: (id, ts, dur).
  roots_table TableOrSubquery,
  -- The child intervals: (root_id, id, parent_id, ts, dur); a child's parent is its root or
  -- another child of the same root.
  children_table TableOrSubquery
)
-- Rows of (root_id, root_ts, root_dur, id, parent_id, ts, dur).
RETURNS TableOrSubquery AS (
  SELECT
    r.id AS root_id,
    r.ts AS root_ts,
    r.dur AS root_dur,
    c.id AS id,
    c.parent_id AS parent_id,
    c.ts AS ts,
    c.dur AS dur
  FROM $roots_table AS r
  JOIN $children_table AS c ON c.root_id = r.id
  UNION ALL
  SELECT r.id, r.ts, r.dur, r.id, NULL, r.ts, r.dur
  FROM $roots_table AS r
  WHERE NOT EXISTS (SELECT 1 FROM $children_table AS c WHERE c.root_id = r.id)
);

-- Like _intervals_merge_root_and_children!, for children that do not name their root: a child
-- belongs to every root with the same `key` value that it shares a point in time with. Roots no
-- child belongs to are left out.
CREATE PERFETTO MACRO _intervals_merge_root_and_children_by_intersection(
  -- The root intervals: (id, ts, dur, key).
  roots TableOrSubquery,
  -- The child intervals: (id, parent_id, ts, dur, key).
  children TableOrSubquery,
  -- The column both tables share that a child and its root must agree on.
  key ColumnName
)
-- Rows of (root_id, root_ts, root_dur, id, parent_id, ts, dur).
RETURNS TableOrSubquery AS (
  SELECT
    r.id AS root_id,
    r.ts AS root_ts,
    r.dur AS root_dur,
    c.id AS id,
    c.parent_id AS parent_id,
    c.ts AS ts,
    c.dur AS dur
  FROM $roots AS r
  JOIN $children AS c
    ON c.$key = r.$key
    -- Sharing a point: a zero-duration child is the point at its ts.
    AND c.ts >= r.ts
    AND (c.ts < r.ts + r.dur OR (c.dur = 0 AND c.ts = r.ts AND r.dur = 0))
);

-- Flattens each root's hierarchy of intervals into non-overlapping pieces, each attributed to
-- the innermost interval covering it: the "self time" of every interval. Pieces are cut at
-- every start and end (a zero-length child still cuts its parent's piece in two) and pieces of
-- zero length are dropped; a child must not outlast its ancestors.
CREATE PERFETTO MACRO _intervals_flatten(
  -- The hierarchy, as _intervals_merge_root_and_children! (or its _by_intersection variant)
  -- gives it: (root_id, root_ts, root_dur, id, parent_id, ts, dur).
  children_with_roots_table TableOrSubquery
)
-- Rows of (root_id, id, ts, dur), ordered by root and ts.
RETURNS TableOrSubquery AS (
  WITH
    _flat_input AS (SELECT * FROM $children_with_roots_table),
    _flat_nodes(root_id, id, parent_id, ts, dur) AS (
      SELECT DISTINCT root_id, root_id, NULL, root_ts, root_dur FROM _flat_input
      UNION
      SELECT root_id, id, parent_id, ts, dur FROM _flat_input WHERE parent_id IS NOT NULL
    ),
    _flat_depth(root_id, id, depth) AS (
      SELECT root_id, id, 0 FROM _flat_nodes WHERE parent_id IS NULL
      UNION ALL
      SELECT n.root_id, n.id, d.depth + 1
      FROM _flat_nodes AS n
      JOIN _flat_depth AS d ON n.root_id = d.root_id AND n.parent_id = d.id
    ),
    _flat_points AS (
      SELECT root_id, ts AS p FROM _flat_nodes
      UNION
      SELECT root_id, ts + dur AS p FROM _flat_nodes
    ),
    _flat_pieces AS (
      SELECT root_id, p AS ts, LEAD(p) OVER (PARTITION BY root_id ORDER BY p) - p AS dur
      FROM _flat_points
    ),
    _flat_owner AS (
      SELECT
        piece.root_id,
        n.id,
        piece.ts,
        piece.dur,
        ROW_NUMBER() OVER (
          PARTITION BY piece.root_id, piece.ts ORDER BY d.depth DESC, n.ts DESC, n.id DESC
        ) AS rank
      FROM _flat_pieces AS piece
      JOIN _flat_nodes AS n
        ON n.root_id = piece.root_id
        AND n.ts <= piece.ts
        AND n.ts + n.dur >= piece.ts + piece.dur
      JOIN _flat_depth AS d ON d.root_id = n.root_id AND d.id = n.id
      WHERE piece.dur > 0
    )
  SELECT root_id, id, ts, dur
  FROM _flat_owner
  WHERE rank = 1
  ORDER BY root_id, ts
);
