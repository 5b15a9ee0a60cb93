-- The dominator tree of the heap with what each object keeps alive: the objects it dominates
-- would be freed with it.

INCLUDE PERFETTO MODULE android.memory.heap_graph.raw_dominator_tree;

-- One row per object reachable from a GC root.
CREATE PERFETTO TABLE heap_graph_dominator_tree(
  -- Heap graph object id.
  id LONG,
  -- Immediate dominator object id; NULL when the object is a root or is dominated by
  -- several roots (only the super-root above them dominates it).
  idom_id LONG,
  -- Objects this object dominates, itself included.
  dominated_obj_count LONG,
  -- Their total self_size.
  dominated_size_bytes LONG,
  -- Their total native_size.
  dominated_native_size_bytes LONG,
  -- Depth in the dominator tree; 1 for objects right under the super-root.
  depth LONG
) AS
SELECT
  object_id AS id, idom_id, dominated_obj_count, dominated_size_bytes,
  dominated_native_size_bytes, depth
FROM __intrinsic_heap_graph_dominator_tree
ORDER BY id;
