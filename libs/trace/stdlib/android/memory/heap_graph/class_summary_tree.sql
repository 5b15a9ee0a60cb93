-- The class tree of the heap (android.memory.heap_graph.class_tree) with the totals of each
-- node's subtree: what keeps how much of the heap alive, by path of classes from the roots.

INCLUDE PERFETTO MODULE android.memory.heap_graph.class_tree;

-- One row per class tree node, with its own and its subtree's objects and bytes.
CREATE PERFETTO TABLE android_heap_graph_class_summary_tree(
  -- When the dump was taken.
  graph_sample_ts TIMESTAMP,
  -- The dumped process.
  upid JOINID(process.id),
  -- The node.
  id LONG,
  -- Its parent node; NULL at a root.
  parent_id LONG,
  -- The class name (deobfuscated when known).
  name STRING,
  -- The roots' kind, for a root node; NULL otherwise.
  root_type STRING,
  -- Objects of this class with this path to the root.
  self_count LONG,
  -- Their bytes.
  self_size LONG,
  -- self_count of the node and everything below it.
  cumulative_count LONG,
  -- self_size of the node and everything below it.
  cumulative_size LONG
) AS
SELECT
  t.graph_sample_ts, t.upid, t.id, t.parent_id, t.name, t.root_type, t.self_count,
  t.self_size, c.cumulative_count, c.cumulative_size
FROM _heap_graph_class_tree t
JOIN __intrinsic_heap_graph_class_tree c USING (id)
ORDER BY t.id;
