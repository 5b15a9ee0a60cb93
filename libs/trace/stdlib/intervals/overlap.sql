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

-- 1 if any two of the (ts, dur) intervals overlap (ignoring dur -1), else 0.
CREATE PERFETTO MACRO _intervals_overlap_in_table(intervals TableOrSubquery)
RETURNS Expr AS (
  SELECT COUNT(*) FROM (
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
