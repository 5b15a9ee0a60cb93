-- Intersecting intervals with a window of time.

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
