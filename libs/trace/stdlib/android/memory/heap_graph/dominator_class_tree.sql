-- The dominator tree of the heap merged by class path, like class_tree does for the
-- shortest-path tree: one node per path of class names from a root of the dominator tree.

INCLUDE PERFETTO MODULE android.memory.heap_graph.raw_dominator_tree;

-- The dominator class tree: one node per (dump, path of class names).
CREATE PERFETTO TABLE _heap_graph_dominator_class_tree(
  -- When the dump was taken.
  graph_sample_ts TIMESTAMP,
  -- The dumped process.
  upid JOINID(process.id),
  -- The node.
  id LONG,
  -- Its parent node; NULL at a root.
  parent_id LONG,
  -- The class name (deobfuscated when known), "[native] <class>" for native memory.
  name STRING,
  -- The roots' kind, for a root node.
  root_type STRING,
  -- The objects' ART heap; HEAP_TYPE_NATIVE for native memory.
  heap_type STRING,
  -- Objects in the node.
  self_count LONG,
  -- Their bytes.
  self_size LONG,
  -- A hash of the node's path.
  path_hash_stable LONG
) AS
SELECT
  graph_sample_ts, upid, id, parent_id,
  iif(is_native, '[native] ' || name, name) AS name,
  root_type, heap_type, self_count, self_size, path_hash AS path_hash_stable
FROM __intrinsic_heap_graph_dominator_class_tree
ORDER BY id;
