-- Intersecting intervals: with a window of time, and tables of intervals with each other.

-- The rows of a table of intervals (id, ts, dur) that overlap [ts, ts + dur), clipped to it:
-- one row per overlapping interval with its id and the clipped ts and dur.
CREATE PERFETTO MACRO _interval_intersect_single(
  -- The window's start (trace clock, ns).
  ts Expr,
  -- The window's duration, in ns.
  dur Expr,
  -- A table or subquery with id, ts and dur columns.
  t TableOrSubquery
)
-- Rows of (id, ts, dur).
RETURNS TableOrSubquery AS (
  SELECT
    iv.id AS id,
    MAX(iv.ts, ($ts)) AS ts,
    MIN(iv.ts + iv.dur, ($ts) + ($dur)) - MAX(iv.ts, ($ts)) AS dur
  FROM $t AS iv
  WHERE iv.ts < ($ts) + ($dur) AND iv.ts + iv.dur > ($ts)
);

-- Intersects two or more tables of intervals, each with id, ts and dur columns: one row per
-- combination of intervals, one from each table, that have a point in common and (when
-- partition columns are given) the same value in each of them. An interval is [ts, ts + dur);
-- a zero-duration one is the point ts, which meets an interval containing it and a point at the
-- same ts. Intervals of one table may overlap each other.
CREATE PERFETTO MACRO _interval_intersect(
  -- The tables (or subqueries) to intersect, in parentheses: (a, b, ...).
  tabs _TableNameList,
  -- The columns to partition by, in parentheses; () for none.
  partitions ColumnNameList
)
-- Rows of (ts, dur, id_0, id_1, ..., the partition columns): ts is the latest start, dur the
-- earliest end minus ts, id_N the id of the interval from the N-th table.
RETURNS TableOrSubquery AS __intrinsic_interval_intersect!($tabs, $partitions);

-- _interval_intersect! for two tables whose id, start and duration columns have other names.
CREATE PERFETTO MACRO _interval_intersect_with_col_names(
  -- The first table (or subquery).
  tab1 TableOrSubquery,
  -- Its id column.
  id1 ColumnName,
  -- Its start column (trace clock, ns).
  ts1 ColumnName,
  -- Its duration column (ns).
  dur1 ColumnName,
  -- The second table (or subquery).
  tab2 TableOrSubquery,
  -- Its id column.
  id2 ColumnName,
  -- Its start column (trace clock, ns).
  ts2 ColumnName,
  -- Its duration column (ns).
  dur2 ColumnName,
  -- The columns to partition by (present in both tables), in parentheses; () for none.
  partitions ColumnNameList
)
-- Rows of (ts, dur, id_0, id_1, the partition columns), as _interval_intersect! gives.
RETURNS TableOrSubquery AS __intrinsic_interval_intersect_named!(
  $tab1, $id1, $ts1, $dur1, $tab2, $id2, $ts2, $dur2, $partitions);

-- Cuts a table of intervals, which may overlap, at every start and end: for each distinct
-- boundary ts (in order; group_id numbers them from 1), one row per interval open from ts
-- (interval_ends_at_ts 0) and one per interval ending exactly at ts (interval_ends_at_ts 1).
-- dur is the time to the next boundary (0 at the last).
CREATE PERFETTO MACRO interval_self_intersect(
  -- A table or subquery of intervals: (id, ts, dur).
  intervals TableOrSubquery
)
-- Rows of (ts, dur, group_id, id, interval_ends_at_ts).
RETURNS TableOrSubquery AS (
  WITH
    _isi_input AS (SELECT id, ts, dur FROM $intervals),
    _isi_points AS (
      SELECT
        p AS ts,
        COALESCE(LEAD(p) OVER (ORDER BY p) - p, 0) AS dur,
        ROW_NUMBER() OVER (ORDER BY p) AS group_id
      FROM (SELECT ts AS p FROM _isi_input UNION SELECT ts + dur AS p FROM _isi_input)
    )
  SELECT
    pt.ts,
    pt.dur,
    pt.group_id,
    iv.id,
    iv.ts + iv.dur = pt.ts AS interval_ends_at_ts
  FROM _isi_points AS pt
  -- An interval open from ts, or one ending at ts (a zero-length one ends where it starts).
  JOIN _isi_input AS iv ON iv.ts <= pt.ts AND pt.ts <= iv.ts + iv.dur
);
