-- The built-in flow walks: directly_connected_flow, following_flow, preceding_flow. Each
-- returns flow rows: `id` numbers the result rows from 0 (as trace_processor's table functions
-- do), then slice_out, slice_in, trace_id, arg_set_id; rows come in flow id order.

INCLUDE PERFETTO MODULE prelude.events;

-- The flows whose ids `flow_ids` (a subquery of one column) lists, as the flow functions return
-- them: id (the row's number from 0, in flow id order), slice_out, slice_in, trace_id and
-- arg_set_id, in flow id order.
CREATE PERFETTO MACRO _numbered_flows(flow_ids TableOrSubquery)
RETURNS TableOrSubquery AS (
  SELECT
    ROW_NUMBER() OVER (ORDER BY f.id) - 1 AS id, f.slice_out, f.slice_in, f.trace_id,
    f.arg_set_id
  FROM flow AS f
  WHERE f.id IN $flow_ids
  ORDER BY f.id
);

-- Flows reachable from the slice by following flow arrows only: forwards from it (and onwards
-- from the slices reached), and backwards into it (and further back).
CREATE PERFETTO FUNCTION directly_connected_flow(
  -- The slice to start from (slice.id).
  slice_id LONG
)
RETURNS TABLE(
  -- The result row's number, from 0.
  id LONG,
  -- The slice the flow leaves (slice.id).
  slice_out LONG,
  -- The slice the flow enters (slice.id).
  slice_in LONG,
  -- The flow id the trace gave, if any.
  trace_id LONG,
  -- Args of the flow, if any.
  arg_set_id LONG
) AS
WITH RECURSIVE
  forwards(sid) AS (
    SELECT $slice_id
    UNION
    SELECT f.slice_in FROM forwards JOIN flow AS f ON f.slice_out = forwards.sid
  ),
  backwards(sid) AS (
    SELECT $slice_id
    UNION
    SELECT f.slice_out FROM backwards JOIN flow AS f ON f.slice_in = backwards.sid
  ),
  hits AS (
    SELECT f.id FROM forwards JOIN flow AS f ON f.slice_out = forwards.sid
    UNION
    SELECT f.id FROM backwards JOIN flow AS f ON f.slice_in = backwards.sid
  )
SELECT * FROM _numbered_flows!((SELECT id FROM hits))
ORDER BY id;

-- Flows leaving the slice or any of its descendants, and recursively those leaving every slice
-- they reach (or that slice's descendants).
CREATE PERFETTO FUNCTION following_flow(
  -- The slice to start from (slice.id).
  slice_id LONG
)
RETURNS TABLE(
  -- The result row's number, from 0.
  id LONG,
  -- The slice the flow leaves (slice.id).
  slice_out LONG,
  -- The slice the flow enters (slice.id).
  slice_in LONG,
  -- The flow id the trace gave, if any.
  trace_id LONG,
  -- Args of the flow, if any.
  arg_set_id LONG
) AS
WITH RECURSIVE reached(sid) AS (
  SELECT $slice_id
  UNION
  SELECT s.id FROM reached JOIN slice AS s ON s.parent_id = reached.sid
  UNION
  SELECT f.slice_in FROM reached JOIN flow AS f ON f.slice_out = reached.sid
)
SELECT * FROM _numbered_flows!((SELECT f.id FROM reached JOIN flow AS f ON f.slice_out = reached.sid))
ORDER BY id;

-- Flows arriving at the slice or any of its ancestors, and recursively those arriving at every
-- slice they come from (or that slice's ancestors).
CREATE PERFETTO FUNCTION preceding_flow(
  -- The slice to start from (slice.id).
  slice_id LONG
)
RETURNS TABLE(
  -- The result row's number, from 0.
  id LONG,
  -- The slice the flow leaves (slice.id).
  slice_out LONG,
  -- The slice the flow enters (slice.id).
  slice_in LONG,
  -- The flow id the trace gave, if any.
  trace_id LONG,
  -- Args of the flow, if any.
  arg_set_id LONG
) AS
WITH RECURSIVE reached(sid) AS (
  SELECT $slice_id
  UNION
  SELECT s.parent_id FROM reached JOIN slice AS s ON s.id = reached.sid
  WHERE s.parent_id IS NOT NULL
  UNION
  SELECT f.slice_out FROM reached JOIN flow AS f ON f.slice_in = reached.sid
)
SELECT * FROM _numbered_flows!((SELECT f.id FROM reached JOIN flow AS f ON f.slice_in = reached.sid))
ORDER BY id;
