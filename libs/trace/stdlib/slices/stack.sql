-- Stack ids (hashes of a slice's (category, name) chain) and slices by stack id.

INCLUDE PERFETTO MODULE slices.hierarchy;

-- Stack ids. A slice's frame is HASH(category || '|' || name) (a NULL category or name counts
-- as ''); its stack id is the HASH of the text "<own frame>|<root's frame>|...|<parent's
-- frame>", which is trace_processor's value. One pass in C++ (query/slice_stack_table.h),
-- filled when first used: the recursive walk over every slice this replaces, with its
-- indexes, took ~230 ms of CPU on a 1 M-event trace. Lookups by stack_id use the derived
-- table's lazy value index.
CREATE PERFETTO VIEW _slice_stack_hash(id LONG, stack_id LONG, parent_stack_id LONG) AS
SELECT id, stack_id, parent_stack_id
FROM __intrinsic_slice_stack
WHERE stack_id IS NOT NULL;

-- Every slice with its stack id and its parent's (0 for slices without a parent).
CREATE PERFETTO VIEW slice_with_stack_id(
  -- The slice (slice.id).
  id ID(slice.id),
  -- When the slice began (trace clock, ns).
  ts TIMESTAMP,
  -- Its duration in ns.
  dur DURATION,
  -- The track (track.id).
  track_id JOINID(track.id),
  -- The slice's category, if any.
  category STRING,
  -- The slice's name.
  name STRING,
  -- Nesting depth on its track: 0 for a root slice.
  depth LONG,
  -- The enclosing slice (slice.id); NULL at depth 0.
  parent_id JOINID(slice.id),
  -- The args (args.arg_set_id).
  arg_set_id ARGSETID,
  -- Thread CPU time when it began, if recorded.
  thread_ts TIMESTAMP,
  -- Thread CPU time spent in it, if recorded.
  thread_dur LONG,
  -- Instruction counter when it began, if recorded.
  thread_instruction_count LONG,
  -- Instructions retired during it, if recorded.
  thread_instruction_delta LONG,
  -- A hash of the names of the slice and all its ancestors: equal stacks have equal ids.
  stack_id LONG,
  -- The parent's stack_id (0 at depth 0).
  parent_stack_id LONG
) AS
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  s.thread_ts, s.thread_dur, s.thread_instruction_count, s.thread_instruction_delta,
  h.stack_id, h.parent_stack_id
FROM slice AS s
JOIN _slice_stack_hash AS h ON h.id = s.id;

-- The slices whose stack id is `stack_hash` and all their ancestors, each once, by ts.
CREATE PERFETTO FUNCTION ancestor_slice_by_stack(
  -- A stack_id (slice_with_stack_id.stack_id).
  stack_hash LONG
)
RETURNS TABLE(
  -- An ancestor slice (slice.id).
  id JOINID(slice.id),
  -- When it began (trace clock, ns).
  ts TIMESTAMP,
  -- Its duration in ns.
  dur DURATION,
  -- The track (track.id).
  track_id JOINID(track.id),
  -- Its category, if any.
  category STRING,
  -- Its name.
  name STRING,
  -- Its depth.
  depth LONG,
  -- The enclosing slice (slice.id); NULL at depth 0.
  parent_id JOINID(slice.id),
  -- The args (args.arg_set_id).
  arg_set_id ARGSETID,
  -- Thread CPU time when it began, if recorded.
  thread_ts TIMESTAMP,
  -- Thread CPU time spent in it, if recorded.
  thread_dur LONG
) AS
WITH RECURSIVE chain(id) AS (
  SELECT id FROM _slice_stack_hash WHERE stack_id = $stack_hash
  UNION
  SELECT s.parent_id FROM chain JOIN slice AS s ON s.id = chain.id WHERE s.parent_id IS NOT NULL
)
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  s.thread_ts, s.thread_dur
FROM chain
JOIN slice AS s ON s.id = chain.id
ORDER BY s.ts, s.id;

-- The slices whose stack id is `stack_hash` and all their descendants, each once, by ts.
CREATE PERFETTO FUNCTION descendant_slice_by_stack(
  -- A stack_id (slice_with_stack_id.stack_id).
  stack_hash LONG
)
RETURNS TABLE(
  -- A descendant slice (slice.id).
  id JOINID(slice.id),
  -- When it began (trace clock, ns).
  ts TIMESTAMP,
  -- Its duration in ns.
  dur DURATION,
  -- The track (track.id).
  track_id JOINID(track.id),
  -- Its category, if any.
  category STRING,
  -- Its name.
  name STRING,
  -- Its depth.
  depth LONG,
  -- The enclosing slice (slice.id); NULL at depth 0.
  parent_id JOINID(slice.id),
  -- The args (args.arg_set_id).
  arg_set_id ARGSETID,
  -- Thread CPU time when it began, if recorded.
  thread_ts TIMESTAMP,
  -- Thread CPU time spent in it, if recorded.
  thread_dur LONG
) AS
WITH RECURSIVE tree(id) AS (
  SELECT id FROM _slice_stack_hash WHERE stack_id = $stack_hash
  UNION
  SELECT s.id FROM tree JOIN slice AS s ON s.parent_id = tree.id
)
SELECT
  s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id, s.arg_set_id,
  s.thread_ts, s.thread_dur
FROM tree
JOIN slice AS s ON s.id = tree.id
ORDER BY s.ts, s.id;
