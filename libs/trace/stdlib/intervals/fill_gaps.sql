-- Filling the gaps of a table of intervals so every group covers the whole trace.

-- `x` as it is: spreads a column list into a select list.
CREATE PERFETTO MACRO _ifg_column(
  -- A column name.
  x Expr
)
-- The column.
RETURNS Expr AS $x;

-- NULL under the name of `x`: a data column where a gap was filled.
CREATE PERFETTO MACRO _ifg_null_as(
  -- A column name.
  x Expr
)
-- NULL AS x.
RETURNS Expr AS NULL AS $x;

-- Makes each group of a table of intervals contiguous from the trace's start to its end: the
-- table's own rows, plus one row with NULL data columns for each gap — before a group's first
-- interval, between two of its intervals, after its last. A group with rows but no interval
-- (NULL ts: a way to make sure a group appears) gets one row for the whole trace; an empty
-- table gives one row for the whole trace with NULL groups. Intervals of one group must not
-- overlap.
CREATE PERFETTO MACRO _intervals_fill_gaps(
  -- The columns to group by, in parentheses: (a, b), or (NULL) for one group.
  group_cols ColumnNameList,
  -- The columns to carry through (NULL in the filled gaps), in parentheses.
  data_cols ColumnNameList,
  -- The intervals: ts, dur, the group columns and the data columns.
  source_table TableOrSubquery
)
-- Rows of (ts, dur, the group columns, the data columns).
RETURNS TableOrSubquery AS (
  WITH
    _ifg_source AS (SELECT * FROM $source_table),
    _ifg_valid AS (
      SELECT
        ts,
        dur,
        __intrinsic_token_apply!(_ifg_column, $group_cols),
        __intrinsic_token_apply!(_ifg_column, $data_cols),
        LEAD(ts) OVER (
          PARTITION BY __intrinsic_token_apply!(_ifg_column, $group_cols) ORDER BY ts
        ) AS _ifg_next_ts
      FROM _ifg_source
      WHERE ts IS NOT NULL AND dur IS NOT NULL
    ),
    _ifg_groups AS (
      SELECT
        __intrinsic_token_apply!(_ifg_column, $group_cols),
        MIN(ts) AS _ifg_first_ts,
        MAX(ts + dur) AS _ifg_last_end,
        COUNT(ts + dur) AS _ifg_intervals
      FROM _ifg_source
      GROUP BY __intrinsic_token_apply!(_ifg_column, $group_cols)
    )
  -- The table's own intervals.
  SELECT
    ts,
    dur,
    __intrinsic_token_apply!(_ifg_column, $group_cols),
    __intrinsic_token_apply!(_ifg_column, $data_cols)
  FROM _ifg_valid
  UNION ALL
  -- From the trace's start to a group's first interval.
  SELECT
    trace_start(),
    _ifg_first_ts - trace_start(),
    __intrinsic_token_apply!(_ifg_column, $group_cols),
    __intrinsic_token_apply!(_ifg_null_as, $data_cols)
  FROM _ifg_groups
  WHERE _ifg_intervals > 0 AND _ifg_first_ts > trace_start()
  UNION ALL
  -- From a group's last interval to the trace's end.
  SELECT
    _ifg_last_end,
    trace_end() - _ifg_last_end,
    __intrinsic_token_apply!(_ifg_column, $group_cols),
    __intrinsic_token_apply!(_ifg_null_as, $data_cols)
  FROM _ifg_groups
  WHERE _ifg_intervals > 0 AND _ifg_last_end < trace_end()
  UNION ALL
  -- A group with no interval at all: the whole trace.
  SELECT
    trace_start(),
    trace_end() - trace_start(),
    __intrinsic_token_apply!(_ifg_column, $group_cols),
    __intrinsic_token_apply!(_ifg_null_as, $data_cols)
  FROM _ifg_groups
  WHERE _ifg_intervals = 0
  UNION ALL
  -- No rows at all: the whole trace, with no group (the group columns come out NULL from a
  -- join that matches nothing, which works for a (NULL) group list too).
  SELECT
    trace_start(),
    trace_end() - trace_start(),
    __intrinsic_token_apply!(_ifg_column, $group_cols),
    __intrinsic_token_apply!(_ifg_null_as, $data_cols)
  FROM (SELECT 1) LEFT JOIN _ifg_source ON 0
  WHERE NOT EXISTS (SELECT 1 FROM _ifg_source)
  UNION ALL
  -- Between two intervals of a group.
  SELECT
    ts + dur,
    _ifg_next_ts - (ts + dur),
    __intrinsic_token_apply!(_ifg_column, $group_cols),
    __intrinsic_token_apply!(_ifg_null_as, $data_cols)
  FROM _ifg_valid
  WHERE _ifg_next_ts > ts + dur
);
