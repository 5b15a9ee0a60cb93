-- Building intervals from separate tables of start and end timestamps.

-- Pairs each start with the first end strictly after it: one interval per start that has such
-- an end (a start with none is dropped; several starts may share one end). Linear after a sort:
-- one descending pass keeps the earliest end seen so far.
CREATE PERFETTO MACRO _interval_create(
  -- A table or subquery of start timestamps, in a `ts` column.
  starts_table TableOrSubquery,
  -- A table or subquery of end timestamps, in a `ts` column.
  ends_table TableOrSubquery
)
-- Rows of (ts, dur), ordered by ts: the start and the time from it to its end.
RETURNS TableOrSubquery AS (
  SELECT ts, next_end - ts AS dur
  FROM (
    SELECT
      ts,
      is_start,
      -- Walking from the latest time back, ends are met before the starts they close; at an
      -- equal ts the start comes first, so an end at the start's own ts does not count.
      MIN(IIF(is_start, NULL, ts)) OVER (
        ORDER BY ts DESC, is_start DESC ROWS UNBOUNDED PRECEDING
      ) AS next_end
    FROM (
      SELECT ts, 1 AS is_start FROM $starts_table WHERE ts IS NOT NULL
      UNION ALL
      SELECT ts, 0 AS is_start FROM $ends_table WHERE ts IS NOT NULL
    )
  )
  WHERE is_start AND next_end IS NOT NULL
  ORDER BY ts
);
