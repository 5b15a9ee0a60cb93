-- The dominator tree of the heap: an object's immediate dominator is the last object every
-- path from the GC roots to it goes through (following strong references of reachable
-- objects). Computed in C++ (__intrinsic_heap_graph_dominator_tree).

INCLUDE PERFETTO MODULE android.memory.heap_graph.excluded_refs;

-- Every object reachable from a root with its immediate dominator.
CREATE PERFETTO TABLE _raw_heap_graph_dominator_tree(
  -- The object (heap_graph_object.id).
  id LONG,
  -- Its immediate dominator; NULL when only the super-root above all roots dominates it.
  idom_id LONG
) AS
SELECT object_id AS id, idom_id
FROM __intrinsic_heap_graph_dominator_tree
ORDER BY id;
